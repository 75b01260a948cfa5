package cluster

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reconcilelab/rlab/core/api"
	"github.com/reconcilelab/rlab/core/apistore"
	"github.com/reconcilelab/rlab/core/labels"
	"github.com/reconcilelab/rlab/core/sim"
)

// Defaults of Config.
const (
	// DefaultKubeletStart is how long a kubelet takes from seeing a pod bound to
	// its node to reporting it Running and Ready (pulling the image, starting
	// the container, the first readiness probe), and how long a crashed
	// container takes to be back.
	DefaultKubeletStart = 2 * time.Second
	// DefaultKubeletStop is how long a kubelet takes to stop a pod's containers
	// after it saw the pod's deletion, before it removes the pod.
	DefaultKubeletStop = time.Second

	// DefaultSchedulerName, DefaultKubeletName and DefaultClientName are the
	// component names the three components register under.
	DefaultSchedulerName = "scheduler"
	DefaultKubeletName   = "kubelet"
	DefaultClientName    = "kubectl"
)

// DefaultNodes are the nodes of a world that names none.
var DefaultNodes = []string{"node-1", "node-2", "node-3"}

// Config describes the cluster around the controller. The zero value means
// the documented defaults.
type Config struct {
	// Never compared: the field keeps the compiler from writing an
	// equality function for the type, which only made main.wasm bigger.
	_ [0]func()

	// Nodes are the names of the nodes whose kubelets start with the world
	// (default DefaultNodes: node-1, node-2, node-3). Each kubelet registers
	// its node through the API when the world starts. More nodes can join
	// later with CreateNode.
	Nodes []string

	// KubeletStart is how long a pod takes from its kubelet seeing it bound to
	// being Running and Ready (default 2s); a crashed container is back after
	// the same delay. `config kubelet-start=` and `slow kubelet` change it.
	KubeletStart time.Duration
	// KubeletStop is how long a kubelet takes to stop a pod being deleted
	// before it removes it (default 1s), never longer than the pod's grace
	// period. `config kubelet-stop=` changes it.
	KubeletStop time.Duration

	// SchedulerName, KubeletName and ClientName are the component names
	// (defaults "scheduler", "kubelet", "kubectl"). The kubelets report as
	// "<KubeletName>/<node>".
	SchedulerName string
	KubeletName   string
	ClientName    string
}

func (c Config) withDefaults() Config {
	if len(c.Nodes) == 0 {
		c.Nodes = DefaultNodes
	}
	c.Nodes = slices.Clone(c.Nodes)
	if c.KubeletStart <= 0 {
		c.KubeletStart = DefaultKubeletStart
	}
	if c.KubeletStop <= 0 {
		c.KubeletStop = DefaultKubeletStop
	}
	if c.SchedulerName == "" {
		c.SchedulerName = DefaultSchedulerName
	}
	if c.KubeletName == "" {
		c.KubeletName = DefaultKubeletName
	}
	if c.ClientName == "" {
		c.ClientName = DefaultClientName
	}
	return c
}

// Cluster is the world around the replication controller: the scheduler, the
// kubelets of every node, and a kubectl client for the node commands a person
// types (cordon, uncordon). Register its components with the kernel, then
// call Start.
type Cluster struct {
	// Scheduler binds pending pods to nodes.
	Scheduler *Scheduler
	// Kubelets runs the pods bound to every node.
	Kubelets *Kubelets
	// Kubectl sends the requests a person makes (cordon, uncordon).
	Kubectl *Client

	cfg Config
	srv *apistore.Server
	sch sim.Scheduler
}

// New builds a cluster whose components talk to the API through srv and
// schedule the events that start from outside a step (Start, CreateNode, the
// pod actions) on sch, the kernel. It validates the node names.
func New(cfg Config, srv *apistore.Server, sch sim.Scheduler) (*Cluster, error) {
	cfg = cfg.withDefaults()
	for i, name := range cfg.Nodes {
		if err := validateNodeName(name); err != nil {
			return nil, err
		}
		if slices.Contains(cfg.Nodes[:i], name) {
			return nil, errors.New("cluster: node " + strconv.Quote(name) + " is listed twice in Config.Nodes")
		}
	}
	c := &Cluster{cfg: cfg, srv: srv, sch: sch}
	c.Scheduler = newScheduler(cfg.SchedulerName, srv)
	c.Kubelets = newKubelets(cfg, srv, sch)
	c.Kubectl = NewClient(cfg.ClientName, srv, sch)
	return c, nil
}

// Config returns the configuration with its defaults filled in. Nodes lists
// the nodes the world started with, not those created later.
func (c *Cluster) Config() Config {
	cfg := c.cfg
	cfg.Nodes = slices.Clone(cfg.Nodes)
	return cfg
}

// Register registers the scheduler, the kubelets and the client with the
// kernel under their configured names.
func (c *Cluster) Register(k *sim.Kernel) error {
	if err := k.Register(c.cfg.SchedulerName, c.Scheduler); err != nil {
		return err
	}
	if err := k.Register(c.cfg.KubeletName, c.Kubelets); err != nil {
		return err
	}
	return k.Register(c.cfg.ClientName, c.Kubectl)
}

// Start schedules the first steps: each configured node's kubelet starts and
// registers its node, the kubelets list and watch pods, and the scheduler
// lists and watches nodes and pods.
func (c *Cluster) Start() {
	for _, name := range c.cfg.Nodes {
		c.Kubelets.startNode(name, nil)
	}
	c.Kubelets.start()
	c.Scheduler.start(c.sch)
}

// CreateNode adds a node, as `create node NAME --labels=…` does: a kubelet
// starts on the new machine, registers the node through the API and from
// then on runs the pods bound to it, including any bound there before it
// existed. It fails when the name is not a valid node name, the label set
// is invalid, or a node of that name exists or is being created.
func (c *Cluster) CreateNode(name string, nodeLabels map[string]string) error {
	if err := validateNodeName(name); err != nil {
		return err
	}
	if msgs := labels.ValidateLabels(nodeLabels, "metadata.labels"); len(msgs) > 0 {
		return errors.New("create node " + name + ": " + strings.Join(msgs, "; "))
	}
	if c.Kubelets.hasNode(name) {
		return errors.New(`nodes "` + name + `" already exists`)
	}
	if _, ok := c.srv.Store().Object(api.KindNode, "", name); ok {
		return errors.New(`nodes "` + name + `" already exists`)
	}
	c.Kubelets.startNode(name, nodeLabels)
	return nil
}

// Cordon marks a node unschedulable, as `kubectl cordon` does: the client
// sends an update of the node's spec.unschedulable to the API server, and the
// scheduler stops placing new pods there when it hears of it. Pods already on
// the node stay. It returns kubectl's message ("node/node-1 cordoned", or
// "node/node-1 already cordoned" when there is nothing to do, and then sends
// nothing).
func (c *Cluster) Cordon(name string) (string, error) { return c.setUnschedulable(name, true) }

// Uncordon makes a node schedulable again, as `kubectl uncordon` does; the
// scheduler then looks again at the pods that found no node.
func (c *Cluster) Uncordon(name string) (string, error) { return c.setUnschedulable(name, false) }

func (c *Cluster) setUnschedulable(name string, on bool) (string, error) {
	verb := "cordoned"
	if !on {
		verb = "uncordoned"
	}
	obj, ok := c.srv.Store().Object(api.KindNode, "", name)
	if !ok {
		return "", errors.New(`nodes "` + name + `" not found`)
	}
	node := obj.(*api.Node)
	if node.Spec.Unschedulable == on {
		return "node/" + name + " already " + verb, nil
	}
	// kubectl cordon sends a patch of spec.unschedulable, which applies to
	// whatever version is stored; an update without a resourceVersion is the
	// same here (the store's patch only covers metadata).
	upd := node.DeepCopy()
	upd.Metadata.ResourceVersion = ""
	upd.Spec.Unschedulable = on
	c.Kubectl.Send(apistore.Request{Verb: apistore.VerbUpdate, Kind: api.KindNode, Name: name, Object: upd})
	return "node/" + name + " " + verb, nil
}

// validateNodeName checks a node name as the API server would.
func validateNodeName(name string) error {
	if name == "" {
		return errors.New("a node needs a name")
	}
	if msgs := labels.NameIsDNSSubdomain(name, false); len(msgs) > 0 {
		return errors.New("invalid node name " + strconv.Quote(name) + ": " + strings.Join(msgs, "; "))
	}
	return nil
}
