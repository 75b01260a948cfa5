package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCountAgreesTheNounWithTheNumber(t *testing.T) {
	assert.Equal(t, "0 keys", Count(0, "key", "keys"))
	assert.Equal(t, "1 key", Count(1, "key", "keys"))
	assert.Equal(t, "2 watches", Count(2, "watch", "watches"))
}
