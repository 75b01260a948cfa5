package printers

import (
	"bytes"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sorting"
)

// This file prints `kubectl describe`, after k8s.io/kubectl's describe
// package (v0.31): the same sections in the same order, written through a
// tabwriter set up as its tabbedString does, so the columns line up as they
// do in a terminal. Fields the model does not have (IPs, volumes,
// tolerations, node addresses and system info) print as kubectl prints them
// for an object that lacks them.

// Related holds what kubectl's describers read besides the object: the
// Events and the pods. Either list may hold more than is needed (all the
// Events and pods in the store, say); Describe keeps what kubectl's own
// queries would return.
type Related struct {
	// Events are searched as kubectl searches them: by the involved object's
	// name, namespace, kind (not for pods) and uid.
	Events []*api.Event
	// Pods are counted for a ReplicaSet's or ReplicationController's "Pods
	// Status" (those its selector matches and it controls) and listed for a
	// node ("Non-terminated Pods": those bound to it that have not finished).
	Pods []*api.Pod
	// ReplicaSets are searched for a Deployment's old and new ReplicaSets:
	// those its selector matches and it controls (DeploymentReplicaSets).
	ReplicaSets []*api.ReplicaSet
}

// Describe prints obj as `kubectl describe` does, with ages measured up to
// now.
func Describe(obj api.Object, related Related, now time.Time) string {
	w := newPrefixWriter()
	switch o := obj.(type) {
	case *api.Pod:
		describePod(w, o, related, now)
	case *api.ReplicaSet:
		describeReplicaSet(w, o, related, now)
	case *api.ReplicationController:
		describeReplicationController(w, o, related, now)
	case *api.Deployment:
		describeDeployment(w, o, related, now)
	case *api.Node:
		describeNode(w, o, related, now)
	case *api.Event:
		describeEvent(w, o, related, now)
	default:
		return ""
	}
	return w.String()
}

// prefixWriter is kubectl describe's PrefixWriter over its tabbedString
// tabwriter (minimum width 0, tab width 8, padding 2, padded with spaces).
// Every write is indented two spaces per level and has terminal escapes
// made harmless. Without a tabwriter (newPlainPrefixWriter) it writes the
// tabs as they are, as rollout history's PrefixWriter over a plain buffer
// does.
type prefixWriter struct {
	buf bytes.Buffer
	tw  *aligner
}

// Indentation levels, two spaces each.
const (
	level0 = iota
	level1
	level2
	level3
)

func newPrefixWriter() *prefixWriter {
	w := &prefixWriter{}
	w.tw = newAligner(&w.buf, 0, 2)
	return w
}

// newPlainPrefixWriter returns a prefixWriter that aligns nothing.
func newPlainPrefixWriter() *prefixWriter { return &prefixWriter{} }

func (w *prefixWriter) write(level int, text string) {
	b := []byte(escapeTerminal(strings.Repeat("  ", level) + text))
	if w.tw == nil {
		w.buf.Write(b)
		return
	}
	w.tw.Write(b)
}

func (w *prefixWriter) String() string {
	if w.tw != nil {
		w.tw.Flush()
	}
	return w.buf.String()
}

// rfc1123z writes a timestamp as describe does (time.RFC1123Z), in UTC, the
// zone of the simulated clock.
func rfc1123z(t time.Time) string { return t.UTC().Format(time.RFC1123Z) }

// printLabels is printLabelsMultiline: sorted key=value lines, or <none>.
func printLabels(w *prefixWriter, title string, m map[string]string) {
	w.write(level0, title+":\t")
	if len(m) == 0 {
		w.write(level0, "<none>\n")
		return
	}
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i != 0 {
			w.write(level0, "\t")
		}
		w.write(level0, k+"="+m[k]+"\n")
	}
}

// maxAnnotationLen is describe's limit for an annotation on one line.
const maxAnnotationLen = 140

// printAnnotations is printAnnotationsMultiline: sorted "key: value" lines,
// with long or multi-line values written below their key, each line cut at
// 138 bytes. kubectl's last-applied-configuration annotation is left out.
func printAnnotations(w *prefixWriter, title string, m map[string]string) {
	w.write(level0, title+":\t")
	var keys []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if k != "kubectl.kubernetes.io/last-applied-configuration" {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		w.write(level0, "<none>\n")
		return
	}
	for i, k := range keys {
		if i != 0 {
			w.write(level0, "\t")
		}
		value := strings.TrimSuffix(m[k], "\n")
		if len(value)+len(k)+2 > maxAnnotationLen || strings.Contains(value, "\n") {
			w.write(level0, k+":\n")
			for _, line := range strings.Split(value, "\n") {
				if len(line) > maxAnnotationLen-2 {
					line = line[:maxAnnotationLen-2] + "..."
				}
				w.write(level0, "\t  "+line+"\n")
			}
		} else {
			w.write(level0, k+": "+value+"\n")
		}
	}
}

// controlledBy is printController: "Kind/name" of the controller, or "".
func controlledBy(m *api.ObjectMeta) string {
	if ref := api.GetControllerOf(m); ref != nil {
		return ref.Kind + "/" + ref.Name
	}
	return ""
}

func describePod(w *prefixWriter, pod *api.Pod, related Related, now time.Time) {
	m := &pod.Metadata
	w.write(level0, "Name:\t"+m.Name+"\n")
	w.write(level0, "Namespace:\t"+m.Namespace+"\n")
	if pod.Spec.NodeName == "" {
		w.write(level0, "Node:\t<none>\n")
	} else {
		w.write(level0, "Node:\t"+pod.Spec.NodeName+"/"+pod.Status.HostIP+"\n")
	}
	if pod.Status.StartTime != nil {
		w.write(level0, "Start Time:\t"+rfc1123z(pod.Status.StartTime.Time)+"\n")
	}
	printLabels(w, "Labels", m.Labels)
	printAnnotations(w, "Annotations", m.Annotations)
	if m.DeletionTimestamp != nil && pod.Status.Phase != api.PodFailed && pod.Status.Phase != api.PodSucceeded {
		// The deletion timestamp lies in the future (now plus the grace
		// period), so kubectl, which measures the time since it, shows
		// "<invalid>" for most of the grace period. So does this.
		w.write(level0, "Status:\tTerminating (lasts "+age(*m.DeletionTimestamp, now)+")\n")
		if m.DeletionGracePeriodSeconds != nil {
			w.write(level0, "Termination Grace Period:\t"+strconv.FormatInt(*m.DeletionGracePeriodSeconds, 10)+"s\n")
		}
	} else {
		w.write(level0, "Status:\t"+pod.Status.Phase+"\n")
	}
	if pod.Status.Reason != "" {
		w.write(level0, "Reason:\t"+pod.Status.Reason+"\n")
	}
	if pod.Status.Message != "" {
		w.write(level0, "Message:\t"+pod.Status.Message+"\n")
	}
	w.write(level0, "IP:\t\n")
	w.write(level0, "IPs:\t<none>\n")
	if c := controlledBy(m); c != "" {
		w.write(level0, "Controlled By:\t"+c+"\n")
	}
	describeContainers(w, "", pod.Spec.Containers, pod.Status.ContainerStatuses, pod.Status.Conditions)
	if len(pod.Status.Conditions) > 0 {
		w.write(level0, "Conditions:\n  Type\tStatus\n")
		for _, c := range pod.Status.Conditions {
			w.write(level1, c.Type+" \t"+c.Status+" \n")
		}
	}
	w.write(level0, "Volumes:\t<none>\n")
	// Containers in the model request no resources.
	w.write(level0, "QoS Class:\tBestEffort\n")
	printLabels(w, "Node-Selectors", nil)
	w.write(level0, "Tolerations:\t<none>\n")
	describeEvents(w, eventsFor(related.Events, "", m), now)
}

// describeContainers is describeContainers with its helpers for the fields
// the model has. space is "" for a pod and "  " for a pod template, which
// has no statuses.
func describeContainers(w *prefixWriter, space string, containers []api.Container, statuses []api.ContainerStatus, conditions []api.PodCondition) {
	none := ""
	if len(containers) == 0 {
		none = " <none>"
	}
	w.write(level0, space+"Containers:"+none+"\n")
	nameIndent := ""
	if space != "" {
		nameIndent = " "
	}
	for _, c := range containers {
		var status *api.ContainerStatus
		for i := range statuses {
			if statuses[i].Name == c.Name {
				status = &statuses[i]
			}
		}
		w.write(level1, nameIndent+c.Name+":\n")
		if status != nil {
			w.write(level2, "Container ID:\t\n")
		}
		w.write(level2, "Image:\t"+c.Image+"\n")
		if status != nil {
			w.write(level2, "Image ID:\t\n")
		}
		w.write(level2, "Port:\t<none>\n")
		w.write(level2, "Host Port:\t<none>\n")
		if status != nil {
			describeContainerState(w, status, conditions)
		}
		w.write(level2, "Environment:\t<none>\n")
		w.write(level2, "Mounts:\t<none>\n")
	}
}

// describeContainerState prints a container's state, ready flag and restart
// count. The model keeps no container states; a running container (see
// containerRunning) is Running since the pod's containers last became ready,
// when that is known, and any other is Waiting, which is what describe
// prints for a container status without a state.
func describeContainerState(w *prefixWriter, status *api.ContainerStatus, conditions []api.PodCondition) {
	if containerRunning(status) {
		w.write(level2, "State:\tRunning\n")
		for _, c := range conditions {
			if c.Type == "ContainersReady" && c.Status == api.ConditionTrue && !c.LastTransitionTime.IsZero() {
				w.write(level3, "Started:\t"+rfc1123z(c.LastTransitionTime.Time)+"\n")
			}
		}
	} else {
		w.write(level2, "State:\tWaiting\n")
	}
	ready := "False"
	if status.Ready {
		ready = "True"
	}
	w.write(level2, "Ready:\t"+ready+"\n")
	w.write(level2, "Restart Count:\t"+strconv.Itoa(int(status.RestartCount))+"\n")
}

// describePodTemplate is DescribePodTemplate.
func describePodTemplate(w *prefixWriter, t *api.PodTemplateSpec) {
	w.write(level0, "Pod Template:\n")
	if t == nil {
		// kubectl writes this without a line break.
		w.write(level1, "<unset>")
		return
	}
	printLabels(w, "  Labels", t.Metadata.Labels)
	if len(t.Metadata.Annotations) > 0 {
		printAnnotations(w, "  Annotations", t.Metadata.Annotations)
	}
	describeContainers(w, "  ", t.Spec.Containers, nil, nil)
	w.write(level0, "  Volumes:\t<none>\n")
	printLabels(w, "  Node-Selectors", nil)
	w.write(level0, "  Tolerations:\t<none>\n")
}

// podsStatus counts the pods in the owner's namespace that selector matches
// and the owner controls, by phase, as getPodStatusForController does.
func podsStatus(pods []*api.Pod, selector labels.Selector, owner *api.ObjectMeta) string {
	var running, waiting, succeeded, failed int
	for _, p := range pods {
		if p.Metadata.Namespace != owner.Namespace || !selector.Matches(labels.Set(p.Metadata.Labels)) {
			continue
		}
		ref := api.GetControllerOf(&p.Metadata)
		if ref == nil || ref.UID != owner.UID {
			continue
		}
		switch p.Status.Phase {
		case api.PodRunning:
			running++
		case api.PodPending:
			waiting++
		case api.PodSucceeded:
			succeeded++
		case api.PodFailed:
			failed++
		}
	}
	return strconv.Itoa(running) + " Running / " + strconv.Itoa(waiting) + " Waiting / " +
		strconv.Itoa(succeeded) + " Succeeded / " + strconv.Itoa(failed) + " Failed"
}

// writeConditions is the conditions table of the workload describers.
func writeConditions(w *prefixWriter, types, statuses, reasons []string) {
	if len(types) == 0 {
		return
	}
	w.write(level0, "Conditions:\n  Type\tStatus\tReason\n")
	w.write(level1, "----\t------\t------\n")
	for i := range types {
		w.write(level1, types[i]+" \t"+statuses[i]+"\t"+reasons[i]+"\n")
	}
}

// writeReplicaConditions writes the conditions of a ReplicaSet or of a
// ReplicationController, which share one condition type.
func writeReplicaConditions(w *prefixWriter, conds []api.ReplicaSetCondition) {
	var types, statuses, reasons []string
	for _, c := range conds {
		types, statuses, reasons = append(types, c.Type), append(statuses, c.Status), append(reasons, c.Reason)
	}
	writeConditions(w, types, statuses, reasons)
}

func describeReplicaSet(w *prefixWriter, rs *api.ReplicaSet, related Related, now time.Time) {
	m := &rs.Metadata
	w.write(level0, "Name:\t"+m.Name+"\n")
	w.write(level0, "Namespace:\t"+m.Namespace+"\n")
	w.write(level0, "Selector:\t"+labels.FormatLabelSelector(rs.Spec.Selector)+"\n")
	printLabels(w, "Labels", m.Labels)
	printAnnotations(w, "Annotations", m.Annotations)
	if c := controlledBy(m); c != "" {
		w.write(level0, "Controlled By:\t"+c+"\n")
	}
	w.write(level0, "Replicas:\t"+strconv.Itoa(int(rs.Status.Replicas))+" current / "+desired(rs.Spec.Replicas)+" desired\n")
	w.write(level0, "Pods Status:\t")
	if selector, err := labels.LabelSelectorAsSelector(rs.Spec.Selector); err != nil {
		w.write(level0, "error in fetching pods: "+err.Error()+"\n")
	} else {
		w.write(level0, podsStatus(related.Pods, selector, m)+"\n")
	}
	describePodTemplate(w, &rs.Spec.Template)
	writeReplicaConditions(w, rs.Status.Conditions)
	describeEvents(w, eventsFor(related.Events, string(api.KindReplicaSet), m), now)
}

func describeReplicationController(w *prefixWriter, rc *api.ReplicationController, related Related, now time.Time) {
	m := &rc.Metadata
	w.write(level0, "Name:\t"+m.Name+"\n")
	w.write(level0, "Namespace:\t"+m.Namespace+"\n")
	w.write(level0, "Selector:\t"+formatLabels(rc.Spec.Selector)+"\n")
	printLabels(w, "Labels", m.Labels)
	printAnnotations(w, "Annotations", m.Annotations)
	w.write(level0, "Replicas:\t"+strconv.Itoa(int(rc.Status.Replicas))+" current / "+desired(rc.Spec.Replicas)+" desired\n")
	w.write(level0, "Pods Status:\t"+podsStatus(related.Pods, labels.SelectorFromSet(rc.Spec.Selector), m)+"\n")
	describePodTemplate(w, rc.Spec.Template)
	writeReplicaConditions(w, rc.Status.Conditions)
	describeEvents(w, eventsFor(related.Events, string(api.KindReplicationController), m), now)
}

func describeNode(w *prefixWriter, node *api.Node, related Related, now time.Time) {
	m := &node.Metadata
	w.write(level0, "Name:\t"+m.Name+"\n")
	w.write(level0, "Roles:\t"+orNone(strings.Join(nodeRoles(node), ","))+"\n")
	printLabels(w, "Labels", m.Labels)
	printAnnotations(w, "Annotations", m.Annotations)
	w.write(level0, "CreationTimestamp:\t"+rfc1123z(m.CreationTimestamp.Time)+"\n")
	w.write(level0, "Taints:\t<none>\n")
	w.write(level0, "Unschedulable:\t"+strconv.FormatBool(node.Spec.Unschedulable)+"\n")
	if len(node.Status.Conditions) > 0 {
		w.write(level0, "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n")
		w.write(level1, "----\t------\t-----------------\t------------------\t------\t-------\n")
		for _, c := range node.Status.Conditions {
			// Nodes in the model send no heartbeats: the zero time prints as
			// kubectl prints it.
			w.write(level1, c.Type+" \t"+c.Status+" \t"+rfc1123z(time.Time{})+" \t"+
				rfc1123z(c.LastTransitionTime.Time)+" \t"+c.Reason+" \t"+c.Message+"\n")
		}
	}
	w.write(level0, "Addresses:\n")
	w.write(level0, "System Info:\n")
	for _, field := range []string{"Machine ID", "System UUID", "Boot ID", "Kernel Version", "OS Image",
		"Operating System", "Architecture", "Container Runtime Version"} {
		w.write(level0, "  "+field+":\t\n")
	}
	w.write(level0, "  Kubelet Version:\t"+KubeletVersion+"\n")
	w.write(level0, "  Kube-Proxy Version:\t\n")

	var pods []*api.Pod
	for _, p := range related.Pods {
		if p.Spec.NodeName == m.Name && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			pods = append(pods, p)
		}
	}
	sorting.Func(pods, func(a, b *api.Pod) int {
		return strings.Compare(api.Key(a.Metadata.Namespace, a.Metadata.Name), api.Key(b.Metadata.Namespace, b.Metadata.Name))
	})
	w.write(level0, "Non-terminated Pods:\t("+strconv.Itoa(len(pods))+" in total)\n")
	w.write(level1, "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n")
	w.write(level1, "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n")
	for _, p := range pods {
		// Containers in the model request nothing.
		w.write(level1, p.Metadata.Namespace+"\t"+p.Metadata.Name+"\t\t0 (0%)\t0 (0%)\t0 (0%)\t0 (0%)\t"+
			age(p.Metadata.CreationTimestamp, now)+"\n")
	}
	w.write(level0, "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n")
	w.write(level1, "Resource\tRequests\tLimits\n")
	w.write(level1, "--------\t--------\t------\n")
	for _, r := range []string{"cpu", "memory", "ephemeral-storage"} {
		w.write(level1, r+"\t0 (0%)\t0 (0%)\n")
	}
	describeEvents(w, eventsFor(related.Events, string(api.KindNode), m), now)
}

// describeEvent is kubectl's generic describer, which is what describes
// Events: name, namespace, labels and annotations, then every other field of
// the manifest in sorted order, under labels made from the field names.
func describeEvent(w *prefixWriter, e *api.Event, related Related, now time.Time) {
	m := &e.Metadata
	w.write(level0, "Name:\t"+m.Name+"\n")
	w.write(level0, "Namespace:\t"+m.Namespace+"\n")
	printLabels(w, "Labels", m.Labels)
	printAnnotations(w, "Annotations", m.Annotations)
	if content, err := manifest(e); err == nil {
		printContent(w, level0, content, "")
	}
	describeEvents(w, eventsFor(related.Events, string(api.KindEvent), m), now)
}

// skippedContent are the fields the generic describer has already printed.
var skippedContent = []string{".metadata.managedFields", ".metadata.name", ".metadata.namespace",
	".metadata.labels", ".metadata.annotations"}

// printContent is printUnstructuredContent.
func printContent(w *prefixWriter, level int, content map[string]any, prefix string) {
	for _, field := range slices.Sorted(maps.Keys(content)) {
		path := prefix + "." + field
		if slices.Contains(skippedContent, path) {
			continue
		}
		switch v := content[field].(type) {
		case map[string]any:
			w.write(level, smartLabel(field)+":\n")
			printContent(w, level+1, v, path)
		case []any:
			w.write(level, smartLabel(field)+":\n")
			for _, child := range v {
				if cm, ok := child.(map[string]any); ok {
					printContent(w, level+1, cm, path)
				} else {
					w.write(level+1, formatValue(child)+"\n")
				}
			}
		default:
			w.write(level, smartLabel(field)+":\t"+formatValue(v)+"\n")
		}
	}
}

// formatValue is fmt's %v for a scalar of a decoded manifest.
func formatValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "<nil>"
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	case interface{ String() string }: // json.Number
		return v.String()
	}
	return ""
}

// smartLabel is smartLabelFor: "involvedObject" becomes "Involved Object",
// "apiVersion" becomes "API Version"; a field with characters other than
// letters and '-' is left as it is.
func smartLabel(field string) string {
	if strings.IndexFunc(field, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) != -1 {
		return field
	}
	var parts []string
	for _, part := range splitCamelCase(field) {
		switch up := strings.ToUpper(part); up {
		case "API", "URL", "UID", "OSB", "GUID":
			parts = append(parts, up)
		default:
			r, size := utf8.DecodeRuneInString(part)
			parts = append(parts, string(unicode.ToTitle(r))+part[size:])
		}
	}
	return strings.Join(parts, " ")
}

// splitCamelCase is github.com/fatih/camelcase's Split: runs of lower-case
// letters, upper-case letters, digits and other characters, with the last
// capital of a run moved to the lower-case run after it ("PDFLoader" gives
// "PDF", "Loader").
func splitCamelCase(s string) []string {
	var runs [][]rune
	last := 0
	for _, r := range s {
		class := 4
		switch {
		case unicode.IsLower(r):
			class = 1
		case unicode.IsUpper(r):
			class = 2
		case unicode.IsDigit(r):
			class = 3
		}
		if class == last {
			runs[len(runs)-1] = append(runs[len(runs)-1], r)
		} else {
			runs = append(runs, []rune{r})
		}
		last = class
	}
	for i := 0; i < len(runs)-1; i++ {
		if unicode.IsUpper(runs[i][0]) && unicode.IsLower(runs[i+1][0]) {
			runs[i+1] = append([]rune{runs[i][len(runs[i])-1]}, runs[i+1]...)
			runs[i] = runs[i][:len(runs[i])-1]
		}
	}
	var out []string
	for _, r := range runs {
		if len(r) > 0 {
			out = append(out, string(r))
		}
	}
	return out
}

// eventsFor returns the Events kubectl's searchEvents finds for an object:
// those whose involved object has its name and namespace, its kind (unless
// kind is "", as for pods, whose describer drops the kind), and its uid.
// For a node, an involved uid equal to the node's name counts too: kubelets
// record node Events that way, and describe searches for both.
func eventsFor(events []*api.Event, kind string, m *api.ObjectMeta) []*api.Event {
	var out []*api.Event
	for _, e := range events {
		o := &e.InvolvedObject
		if o.Name != m.Name || o.Namespace != m.Namespace || (kind != "" && o.Kind != kind) {
			continue
		}
		if m.UID != "" && o.UID != m.UID && !(kind == string(api.KindNode) && o.UID == m.Name) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// describeEvents is DescribeEvents: the Events sorted by when they were last
// seen, with their age, "(xN over AGE)" for repeated ones. Events seen at
// the same time keep the API server's order, by name, as kubectl's sort
// keeps it for the few Events an object usually has.
func describeEvents(w *prefixWriter, events []*api.Event, now time.Time) {
	if len(events) == 0 {
		w.write(level0, "Events:\t<none>\n")
		return
	}
	sorted := slices.Clone(events)
	sorting.Func(sorted, func(a, b *api.Event) int {
		if c := a.LastTimestamp.Compare(b.LastTimestamp.Time); c != 0 {
			return c
		}
		return strings.Compare(a.Metadata.Name, b.Metadata.Name)
	})
	w.write(level0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n")
	w.write(level1, "----\t------\t----\t----\t-------\n")
	for _, e := range sorted {
		interval := age(e.FirstTimestamp, now)
		if e.Count > 1 {
			interval = age(e.LastTimestamp, now) + " (x" + strconv.Itoa(int(e.Count)) + " over " + interval + ")"
		}
		w.write(level1, e.Type+"\t"+e.Reason+"\t"+interval+"\t"+e.Source.Component+"\t"+strings.TrimSpace(e.Message)+"\n")
	}
}
