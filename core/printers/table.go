package printers

import (
	"bytes"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sorting"
)

// This file prints `kubectl get` tables. In a real cluster the API server
// builds the table (pkg/printers/internalversion in k8s.io/kubernetes, always
// with every column) and kubectl prints it (cli-runtime's table printer):
// headers upper-cased, the priority-1 columns only with -o wide, cells cut
// at the first line break, and columns aligned by a tabwriter.

// KubeletVersion is the version every node reports in the VERSION column: the
// model's kubelets are those of Kubernetes v1.31.14, the version its
// behaviour follows. Nodes in the model carry no nodeInfo, so the printers
// supply it.
const KubeletVersion = "v1.31.14"

// column is one column of a table; wide columns are the server's priority-1
// columns, shown only with -o wide.
type column struct {
	name string
	wide bool
}

var (
	podColumns = []column{{"Name", false}, {"Ready", false}, {"Status", false}, {"Restarts", false}, {"Age", false},
		{"IP", true}, {"Node", true}, {"Nominated Node", true}, {"Readiness Gates", true}}
	replicaSetColumns = []column{{"Name", false}, {"Desired", false}, {"Current", false}, {"Ready", false}, {"Age", false},
		{"Containers", true}, {"Images", true}, {"Selector", true}}
	deploymentColumns = []column{{"Name", false}, {"Ready", false}, {"Up-to-date", false}, {"Available", false}, {"Age", false},
		{"Containers", true}, {"Images", true}, {"Selector", true}}
	nodeColumns = []column{{"Name", false}, {"Status", false}, {"Roles", false}, {"Age", false}, {"Version", false},
		{"Internal-IP", true}, {"External-IP", true}, {"OS-Image", true}, {"Kernel-Version", true}, {"Container-Runtime", true}}
	eventColumns = []column{{"Last Seen", false}, {"Type", false}, {"Reason", false}, {"Object", false},
		{"Subobject", true}, {"Source", true}, {"Message", false}, {"First Seen", true}, {"Count", true}, {"Name", true}}
)

// Table prints the objects of kind in objs as `kubectl get KIND` does, with
// the -o wide columns when wide is set; objects of other kinds are left out.
// Rows come in the order the API server lists objects, by namespace and
// name. Ages are measured up to now.
//
// With nothing to print, Table returns kubectl's message instead, "No
// resources found in NAMESPACE namespace." ("No resources found" for
// nodes), which kubectl writes to stderr; namespace "" stands for default.
func Table(kind api.Kind, namespace string, objs []api.Object, now time.Time, wide bool) string {
	var sorted []api.Object
	for _, obj := range objs {
		if obj != nil && obj.Kind() == kind {
			sorted = append(sorted, obj)
		}
	}
	// Keys are unique, so the order is total.
	sorting.Func(sorted, func(a, b api.Object) int {
		return strings.Compare(api.Key(a.Meta().Namespace, a.Meta().Name), api.Key(b.Meta().Namespace, b.Meta().Name))
	})
	var columns []column
	rows := make([][]string, 0, len(sorted))
	for _, obj := range sorted {
		switch o := obj.(type) {
		case *api.Pod:
			columns = podColumns
			rows = append(rows, podRow(o, now))
		case *api.ReplicaSet:
			columns = replicaSetColumns
			rows = append(rows, replicaSetRow(o, now))
		case *api.ReplicationController:
			columns = replicaSetColumns
			rows = append(rows, replicationControllerRow(o, now))
		case *api.Deployment:
			columns = deploymentColumns
			rows = append(rows, deploymentRow(o, now))
		case *api.Node:
			columns = nodeColumns
			rows = append(rows, nodeRow(o, now))
		case *api.Event:
			columns = eventColumns
			rows = append(rows, eventRow(o, now))
		}
	}
	if len(rows) == 0 {
		return NoResourcesFound(kind, namespace)
	}
	return formatTable(columns, rows, wide)
}

// NoResourcesFound is the line kubectl get writes (to stderr) when nothing
// matched: it names the namespace for namespaced kinds.
func NoResourcesFound(kind api.Kind, namespace string) string {
	if !kind.Namespaced() {
		return "No resources found\n"
	}
	if namespace == "" {
		namespace = "default"
	}
	return "No resources found in " + namespace + " namespace.\n"
}

// formatTable writes the header and rows as cli-runtime's printTable does,
// through a tabwriter set up as its GetNewTabWriter sets one up: minimum cell
// width 6, tab width 4, padding 3, padded with spaces.
func formatTable(columns []column, rows [][]string, wide bool) string {
	var buf bytes.Buffer
	w := newAligner(&buf, 6, 3)
	header := make([]string, len(columns))
	for i, c := range columns {
		header[i] = strings.ToUpper(c.name)
	}
	writeRowTo(w, columns, header, wide)
	for _, row := range rows {
		writeRowTo(w, columns, row, wide)
	}
	w.Flush()
	return buf.String()
}

// writeRowTo writes one row of cells, tab-separated, skipping the wide
// columns unless wide is set.
func writeRowTo(w *aligner, columns []column, cells []string, wide bool) {
	var line strings.Builder
	first := true
	for i, cell := range cells {
		if columns[i].wide && !wide {
			continue
		}
		if !first {
			line.WriteByte('\t')
		}
		first = false
		line.WriteString(escapeCell(cell))
	}
	line.WriteByte('\n')
	w.Write([]byte(line.String()))
}

// escapeCell is what cli-runtime's printTable does to a string cell: cut it
// at the first form feed, line feed or carriage return (adding "..."), then
// make terminal escapes harmless (ESC becomes "^[").
func escapeCell(s string) string {
	if i := strings.IndexAny(s, "\f\n\r"); i >= 0 {
		s = s[:i] + "..."
	}
	return escapeTerminal(s)
}

// escapeTerminal is cli-runtime's terminalEscaper: ESC becomes "^[" and CR
// becomes a visible "\r".
func escapeTerminal(s string) string {
	if !strings.ContainsAny(s, "\x1b\r") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\x1b':
			b.WriteString("^[")
		case '\r':
			b.WriteString(`\r`)
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// PodStatus is the STATUS kubectl shows for a pod: the pod's reason if it has
// one (Evicted), else its phase, and Terminating while a graceful delete is
// under way (but not for a pod that has already failed or succeeded). Pods in
// the model carry no container states, so the per-container reasons kubectl
// would show instead (ContainerCreating, CrashLoopBackOff, Error) never
// appear.
func PodStatus(pod *api.Pod) string {
	phase := pod.Status.Phase
	reason := phase
	if pod.Status.Reason != "" {
		reason = pod.Status.Reason
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == api.PodScheduled && c.Reason == "SchedulingGated" {
			reason = "SchedulingGated"
		}
	}
	if pod.Metadata.DeletionTimestamp != nil {
		if pod.Status.Reason == "NodeLost" {
			reason = "Unknown"
		} else if phase != api.PodFailed && phase != api.PodSucceeded {
			reason = "Terminating"
		}
	}
	return reason
}

// containerRunning stands in for a running container state, which the
// model does not keep: a container runs when the kubelet says it has
// started, or, when it does not say, when the container is ready.
func containerRunning(c *api.ContainerStatus) bool {
	if c.Started != nil {
		return *c.Started
	}
	return c.Ready
}

// podReadiness returns how many of a pod's containers are ready and running,
// as kubectl counts them, and the sum of their restart counts.
func podReadiness(pod *api.Pod) (ready, restarts int) {
	for i := range pod.Status.ContainerStatuses {
		c := &pod.Status.ContainerStatuses[i]
		restarts += int(c.RestartCount)
		if c.Ready && containerRunning(c) {
			ready++
		}
	}
	return ready, restarts
}

func podRow(pod *api.Pod, now time.Time) []string {
	ready, restarts := podReadiness(pod)
	node := orNone(pod.Spec.NodeName)
	return []string{
		pod.Metadata.Name,
		strconv.Itoa(ready) + "/" + strconv.Itoa(len(pod.Spec.Containers)),
		PodStatus(pod),
		strconv.Itoa(restarts),
		age(pod.Metadata.CreationTimestamp, now),
		"<none>", // IP: pods in the model have no pod IP
		node,
		"<none>", // NOMINATED NODE: there is no preemption
		"<none>", // READINESS GATES: none are modelled
	}
}

// desired returns spec.replicas; the API server defaults a missing one to 1.
func desired(replicas *int32) string {
	if replicas == nil {
		return "1"
	}
	return strconv.Itoa(int(*replicas))
}

func replicaSetRow(rs *api.ReplicaSet, now time.Time) []string {
	names, images := containerCells(rs.Spec.Template.Spec.Containers)
	return []string{
		rs.Metadata.Name,
		desired(rs.Spec.Replicas),
		strconv.Itoa(int(rs.Status.Replicas)),
		strconv.Itoa(int(rs.Status.ReadyReplicas)),
		age(rs.Metadata.CreationTimestamp, now),
		names, images,
		labels.FormatLabelSelector(rs.Spec.Selector),
	}
}

// deploymentRow is upstream's printDeployment: READY is ready pods out of
// spec.replicas, UP-TO-DATE the pods of the newest template, AVAILABLE those
// ready for minReadySeconds.
func deploymentRow(d *api.Deployment, now time.Time) []string {
	names, images := containerCells(d.Spec.Template.Spec.Containers)
	return []string{
		d.Metadata.Name,
		strconv.Itoa(int(d.Status.ReadyReplicas)) + "/" + desired(d.Spec.Replicas),
		strconv.Itoa(int(d.Status.UpdatedReplicas)),
		strconv.Itoa(int(d.Status.AvailableReplicas)),
		age(d.Metadata.CreationTimestamp, now),
		names, images,
		labels.FormatLabelSelector(d.Spec.Selector),
	}
}

func replicationControllerRow(rc *api.ReplicationController, now time.Time) []string {
	var containers []api.Container
	if rc.Spec.Template != nil {
		containers = rc.Spec.Template.Spec.Containers
	}
	names, images := containerCells(containers)
	return []string{
		rc.Metadata.Name,
		desired(rc.Spec.Replicas),
		strconv.Itoa(int(rc.Status.Replicas)),
		strconv.Itoa(int(rc.Status.ReadyReplicas)),
		age(rc.Metadata.CreationTimestamp, now),
		names, images,
		formatLabels(rc.Spec.Selector),
	}
}

// containerCells is the printers' layoutContainerCells: names and images,
// comma-separated.
func containerCells(containers []api.Container) (names, images string) {
	n := make([]string, len(containers))
	im := make([]string, len(containers))
	for i, c := range containers {
		n[i], im[i] = c.Name, c.Image
	}
	return strings.Join(n, ","), strings.Join(im, ",")
}

// formatLabels is apimachinery's labels.FormatLabels: sorted key=value pairs,
// or "<none>".
func formatLabels(m map[string]string) string {
	if s := labels.Set(m).String(); s != "" {
		return s
	}
	return "<none>"
}

// NodeStatus is the STATUS kubectl shows for a node: Ready, NotReady or
// Unknown from its Ready condition, with ",SchedulingDisabled" when it is
// cordoned.
func NodeStatus(node *api.Node) string {
	status := "Unknown"
	// kubectl's printer keeps the last condition of each type, so here the
	// last Ready condition decides, unlike api.PodReadyCondition's first.
	for _, c := range node.Status.Conditions {
		if c.Type == api.NodeReady {
			if c.Status == api.ConditionTrue {
				status = "Ready"
			} else {
				status = "NotReady"
			}
		}
	}
	if node.Spec.Unschedulable {
		status += ",SchedulingDisabled"
	}
	return status
}

// nodeRoles is findNodeRoles: the roles named by node-role.kubernetes.io/ROLE
// labels and by a kubernetes.io/role label, sorted and without repeats.
func nodeRoles(node *api.Node) []string {
	var roles []string
	for _, k := range slices.Sorted(maps.Keys(node.Metadata.Labels)) {
		v := node.Metadata.Labels[k]
		switch {
		case strings.HasPrefix(k, "node-role.kubernetes.io/"):
			if role := strings.TrimPrefix(k, "node-role.kubernetes.io/"); role != "" {
				roles = append(roles, role)
			}
		case k == "kubernetes.io/role" && v != "":
			roles = append(roles, v)
		}
	}
	slices.Sort(roles)
	return slices.Compact(roles)
}

func nodeRow(node *api.Node, now time.Time) []string {
	roles := strings.Join(nodeRoles(node), ",")
	return []string{
		node.Metadata.Name,
		NodeStatus(node),
		orNone(roles),
		age(node.Metadata.CreationTimestamp, now),
		KubeletVersion,
		"<none>", "<none>", // INTERNAL-IP, EXTERNAL-IP: nodes carry no addresses
		"<unknown>", "<unknown>", "<unknown>", // OS-IMAGE, KERNEL-VERSION, CONTAINER-RUNTIME
	}
}

func eventRow(e *api.Event, now time.Time) []string {
	first := age(e.FirstTimestamp, now)
	last := age(e.LastTimestamp, now)
	if e.LastTimestamp.IsZero() {
		last = first
	}
	count := e.Count
	if count == 0 {
		count = 1
	}
	target := strings.ToLower(e.InvolvedObject.Kind)
	if e.InvolvedObject.Name != "" {
		target += "/" + e.InvolvedObject.Name
	}
	source := e.Source.Component
	if e.Source.Host != "" {
		source += ", " + e.Source.Host
	}
	return []string{
		last,
		e.Type,
		e.Reason,
		target,
		"", // SUBOBJECT: involvedObject.fieldPath is not modelled
		source,
		strings.TrimSpace(e.Message),
		first,
		strconv.Itoa(int(count)),
		e.Metadata.Name,
	}
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}
