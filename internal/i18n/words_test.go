package i18n

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func wordTerms(t *testing.T) *Terms {
	t.Helper()
	terms, err := Parse("zh-CN", "t.md", []byte(table(
		[]string{
			rowCtrl, rowQueue, rowTmpl,
			"| desired state | 期望状态 | " + src + " |",
			"| ready | 就绪 | " + src + " |",
		},
		[]string{rowPod, rowRS, rowRecLab, "| Ready | condition type |", "| spec.replicas | field path |", "| pod-template-hash | label key |"})))
	require.NoError(t, err)
	return terms
}

func TestUntranslatedWords(t *testing.T) {
	terms := wordTerms(t)
	for _, tc := range []struct {
		name string
		text string
		want []string
	}{
		{"Chinese only", "控制器把当前状态推向期望状态。", nil},
		{"kept terms and numbers", "ReplicaSet 控制器创建 3 个 Pod，并写入 spec.replicas 和 pod-template-hash。", nil},
		{"kept terms keep their case", "创建 3 个 pod，再看 replicaset。", []string{"pod", "replicaset"}},
		{"no plural forms", "所有 Pods 都属于 ReplicaSets。", []string{"Pods", "ReplicaSets"}},
		{"each word once, in order", "worker 取出 key，另一个 worker 也取 key。", []string{"worker", "key"}},
		{"hyphenated words are one word", "这是 slow-start 批次。", []string{"slow-start"}},
		{"dotted words are one word", "参见 status.readyReplicas。", []string{"status.readyReplicas"}},
		{"a trailing full stop is punctuation", "控制器 controller.", []string{"controller"}},
		{"ready is a word, Ready a kept condition type", "Pod 的 Ready 状况为 True 时它已 ready。", []string{"True", "ready"}},
		{"inline code", "运行 `create rs web --replicas=3` 和 ``kubectl get `pods` ``。", nil},
		{"inline code across a line break", "事件为 `ADDED\nrs/web`，然后 worker。", []string{"worker"}},
		{"fenced code", "看这里：\n```do\ncreate rs web --replicas=3\n```\n然后 Step。", []string{"Step"}},
		{"link text is text, its target is not", "看[工作协程](glossary:worker)和[syncReplicaSet](upstream:syncReplicaSet)。", []string{"syncReplicaSet"}},
		{"code-shaped tokens", "rs/web 的 Pod 带有 app=web，镜像 nginx:2.0，见 https://kubernetes.io/zh-cn/docs/home/?q=pods。", nil},
		{"flags", "使用 --cascade 或 -l 选项。", nil},
		{"tokens with digits", "node-1 上的 web-7xk2p 在 v1.31 返回 409。", nil},
		{"units after numbers", "等待 5 ms，最多 1000 s，即 10s。", nil},
		{"a unit without a number is a word", "单位是 ms。", []string{"ms"}},
		{"phrase kept whole", "欢迎使用 Reconcile Lab。", nil},
		{"a phrase's words alone are words", "Reconcile 是一个词，Lab 也是。", []string{"Reconcile", "Lab"}},
		{"a phrase inside a longer word is not the phrase", "Reconcile Labs 不是项目名。", []string{"Reconcile", "Labs"}},
		{"first-use gloss after its translation", "控制器（controller）按期望状态（Desired State）工作。", nil},
		{"gloss after another word is a word", "队列（controller）", []string{"controller"}},
		{"gloss in ASCII parentheses is a word", "控制器 (controller)", []string{"controller"}},
		{"single letters are not words", "第 a 项和第 B 项。", nil},
		{"full-width letters are not English words", "Ｐｏｄ", nil},
		{"unclosed backtick is text", "这里有一个 ` 和 worker。", []string{"worker"}},
		{"gloss after a link", "[控制器](glossary:controller)（controller）按[期望状态（desired state）](glossary:desired)工作。", nil},
		{"gloss after bold or emphasis", "一个**控制器**（controller），一个*期望状态*（desired state）。", nil},
		{"gloss inside parentheses", "（先由控制器（controller）处理，再入队）", nil},
		{"a predict block's words are text, its expects are not", "```predict\n有几个 worker？\n- [x] 零个 worker => expect pods -l app=web count=0\n- [ ] 三个 => expect pods count=3\n\n因为 queue 是空的。\n```", []string{"worker", "queue"}},
		{"a do block's comments are text, its commands are not", "```do\n# 创建 the ReplicaSet\ncreate rs web --replicas=3\n```", []string{"the"}},
		{"a glossary reference's id is not a word", "{{workqueue}}里的{{dirty}}键。", nil},
		{"a glossary reference's words are text", "运行 {{worker|workers}} 和 {{owner|ReplicaSet}}。", []string{"workers"}},
		{"a gloss after a reference's words", "{{controller|控制器}}（controller）与{{desired|期望状态}}（desired state）。", nil},
		{"a gloss after a reference without words is a word", "{{controller}}（controller）", []string{"controller"}},
		{"values are not words", "{key} 仍在等待 {pods}，共 {podCount} 个 Pod。", nil},
		{"a unit after a value", "{delay} ms 之后。", nil},
		{"braces of another shape are text", "集合 {web, db} 和 {{web page}}。", []string{"web", "db", "page"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, terms.UntranslatedWords(tc.text))
		})
	}
}
