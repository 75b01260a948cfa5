module github.com/reconcilelab/rlab

go 1.26

require (
	github.com/agnivade/levenshtein v1.2.2 // indirect
	github.com/hack-pad/safejs v0.1.0 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	k8s.io/apimachinery v0.31.14 // indirect
	k8s.io/client-go v0.31.14 // indirect
)
