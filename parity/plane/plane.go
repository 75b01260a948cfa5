package plane

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"runtime"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/controller-manager/pkg/informerfactory"
	"k8s.io/klog/v2"
	apiservertesting "k8s.io/kubernetes/cmd/kube-apiserver/app/testing"
	"k8s.io/kubernetes/pkg/controller/deployment"
	"k8s.io/kubernetes/pkg/controller/garbagecollector"
	"k8s.io/kubernetes/pkg/controller/replicaset"
	"k8s.io/kubernetes/pkg/controller/replication"
	"k8s.io/kubernetes/test/utils/ktesting"
)

// Config says what plane to start. Its zero value is the plane every script
// starts from: core/world's defaults.
type Config struct {
	// Workers is each controller's number of workers (default 5, as
	// kube-controller-manager's --concurrent-*-syncs). The garbage collector
	// keeps its own default, 20.
	Workers int
	// BurstReplicas is the most pods one ReplicaSet or ReplicationController
	// sync creates or deletes (default 500, replicaset.BurstReplicas). The
	// Deployment controller has no such knob.
	BurstReplicas int
	// Nodes are the nodes whose kubelets start with the plane (default
	// node-1, node-2, node-3).
	Nodes []string
	// Resync is the controllers' informer resync period (default 0: off).
	// kube-controller-manager's is --min-resync-period (12h) times a random
	// factor in [1, 2); scripts that set one want the exact period, as rlab
	// has it.
	Resync time.Duration
	// KubeletStart and KubeletStop are core/cluster's kubelet-start and
	// kubelet-stop (defaults 2s and 1s), already scaled by the caller.
	KubeletStart, KubeletStop time.Duration
	// Log receives the API server's, etcd's and the controllers' logs; nil
	// discards them.
	Log io.Writer
}

func (c Config) withDefaults() Config {
	if c.Workers <= 0 {
		c.Workers = 5
	}
	if c.BurstReplicas <= 0 {
		c.BurstReplicas = replicaset.BurstReplicas
	}
	if c.Nodes == nil {
		c.Nodes = []string{"node-1", "node-2", "node-3"}
	}
	if c.KubeletStart == 0 {
		c.KubeletStart = 2 * time.Second
	}
	if c.KubeletStop == 0 {
		c.KubeletStop = time.Second
	}
	return c
}

// Plane is a running control plane: etcd, kube-apiserver, the controllers
// and the stand-in scheduler and kubelets, all in this process.
type Plane struct {
	// Client is a client with the API server's loopback credentials, as
	// kubectl would have them.
	Client kubernetes.Interface
	// RESTConfig is that client's configuration.
	RESTConfig *rest.Config

	cfg     Config
	cluster *cluster
	cancel  context.CancelFunc
	tb      *processTB
	etcd    *embed.Etcd
	server  apiservertesting.TestServer
	// Started is how long Start took.
	Started time.Duration
}

// Start starts a plane: etcd on two free loopback ports with its data in a
// temporary directory, kube-apiserver on a third (as the integration tests
// start it, with every API enabled), the ReplicaSet, ReplicationController,
// Deployment and garbage-collector controllers as kube-controller-manager
// wires them (one shared informer factory, resync off, the garbage collector
// fed by a metadata informer factory as well), and the stand-in scheduler and
// kubelets with the configured nodes registered. It returns when all of them
// run and the nodes are registered.
func Start(cfg Config) (p *Plane, err error) {
	began := time.Now()
	cfg = cfg.withDefaults()
	quietLogs(cfg.Log)
	tb := newProcessTB("parity", cfg.Log)
	p = &Plane{cfg: cfg, tb: tb}
	defer func() {
		if r := recover(); r != nil {
			fr, ok := r.(fatalReport)
			if !ok {
				panic(r)
			}
			err = errors.New("starting the API server: " + fr.msg)
		}
		if err != nil {
			p.Stop()
			p = nil
		}
	}()

	etcdDir := tb.TempDir()
	e, url, err := startEtcd(etcdDir)
	if err != nil {
		return p, err
	}
	p.etcd = e
	storage := storagebackend.NewDefaultConfig(path.Join("parity", "registry"), nil)
	storage.Transport.ServerList = []string{url}

	// The test server's defaults, less the client-certificate set-up it
	// makes for aggregated API servers, which no script needs.
	opts := &apiservertesting.TestServerInstanceOptions{EnableCertAuth: false}
	server, err := apiservertesting.StartTestServer(tb, opts, []string{"--disable-admission-plugins=ServiceAccount"}, storage)
	if err != nil {
		return p, fmt.Errorf("starting the API server: %w", err)
	}
	p.server = server
	p.RESTConfig = rest.CopyConfig(server.ClientConfig)
	p.Client, err = kubernetes.NewForConfig(p.RESTConfig)
	if err != nil {
		return p, err
	}

	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	if err := p.startControllers(ctx); err != nil {
		return p, err
	}

	// The stand-in follows pods and nodes with informers of its own, as the
	// scheduler and the kubelets are processes of their own.
	standInInformers := informers.NewSharedInformerFactory(p.clientFor("stand-in"), 0)
	p.cluster = newCluster(ctx, p.clientFor("stand-in"), cfg.KubeletStart, cfg.KubeletStop)
	if err := p.cluster.run(standInInformers); err != nil {
		return p, err
	}
	standInInformers.Start(ctx.Done())
	standInInformers.WaitForCacheSync(ctx.Done())
	for _, n := range cfg.Nodes {
		if err := p.cluster.createNode(n, nil); err != nil {
			return p, fmt.Errorf("registering node %s: %w", n, err)
		}
	}
	p.Started = time.Since(began)
	return p, nil
}

// clientFor returns a client that names itself in the API server's logs, as
// kube-controller-manager's client builder does.
func (p *Plane) clientFor(name string) kubernetes.Interface {
	return kubernetes.NewForConfigOrDie(rest.AddUserAgent(rest.CopyConfig(p.RESTConfig), name))
}

// startControllers wires the four controllers as kube-controller-manager's
// CreateControllerContext and start*Controller functions do in v1.31.
func (p *Plane) startControllers(ctx context.Context) error {
	cfg := p.cfg
	shared := informers.NewSharedInformerFactory(p.clientFor("shared-informers"), cfg.Resync)
	metaClient, err := metadata.NewForConfig(rest.CopyConfig(p.RESTConfig))
	if err != nil {
		return err
	}
	metaInformers := metadatainformer.NewSharedInformerFactory(metaClient, cfg.Resync)
	restMapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(p.Client.Discovery()))
	informersStarted := make(chan struct{})

	rs := replicaset.NewReplicaSetController(ctx, shared.Apps().V1().ReplicaSets(), shared.Core().V1().Pods(),
		p.clientFor("replicaset-controller"), cfg.BurstReplicas)
	rc := replication.NewReplicationManager(ctx, shared.Core().V1().Pods(), shared.Core().V1().ReplicationControllers(),
		p.clientFor("replication-controller"), cfg.BurstReplicas)
	dc, err := deployment.NewDeploymentController(ctx, shared.Apps().V1().Deployments(), shared.Apps().V1().ReplicaSets(),
		shared.Core().V1().Pods(), p.clientFor("deployment-controller"))
	if err != nil {
		return err
	}
	graph := garbagecollector.NewDependencyGraphBuilder(ctx, metaClient, restMapper, map[schema.GroupResource]struct{}{},
		informerfactory.NewInformerFactory(shared, metaInformers), informersStarted)
	gcConfig := rest.CopyConfig(p.RESTConfig)
	gcConfig.QPS *= 2
	gcMeta, err := metadata.NewForConfig(gcConfig)
	if err != nil {
		return err
	}
	gc, err := garbagecollector.NewComposedGarbageCollector(ctx, p.clientFor("generic-garbage-collector"), gcMeta, restMapper, graph)
	if err != nil {
		return err
	}

	go rs.Run(ctx, cfg.Workers)
	go rc.Run(ctx, cfg.Workers)
	go dc.Run(ctx, cfg.Workers)
	go gc.Run(ctx, 20)
	go gc.Sync(ctx, p.Client.Discovery(), 30*time.Second)

	shared.Start(ctx.Done())
	metaInformers.Start(ctx.Done())
	close(informersStarted)
	shared.WaitForCacheSync(ctx.Done())
	return nil
}

// Stop ends the controllers and the stand-in, then the API server and etcd,
// and removes their temporary directories.
func (p *Plane) Stop() {
	if p == nil {
		return
	}
	if p.cancel != nil {
		p.cancel()
	}
	if p.server.TearDownFn != nil {
		p.server.TearDownFn()
	}
	if p.etcd != nil {
		p.etcd.Close()
	}
	p.tb.runCleanups()
}

// CreateNode starts a new node's kubelet, which registers its Node.
func (p *Plane) CreateNode(name string, labels map[string]string) error {
	return p.cluster.createNode(name, labels)
}

// Act makes something happen to running pods (namespace/name keys) through
// their kubelets: crash, evict, readiness. Every pod is checked first.
func (p *Plane) Act(action PodAction, keys []string) error { return p.cluster.act(action, keys) }

// SetKubeletDelays changes kubelet-start and kubelet-stop for pods admitted
// or deleted from now on; a negative value keeps the current one.
func (p *Plane) SetKubeletDelays(start, stop time.Duration) { p.cluster.setDelays(start, stop) }

// KubeletDelays returns kubelet-start and kubelet-stop now.
func (p *Plane) KubeletDelays() (time.Duration, time.Duration) { return p.cluster.delays() }

// StandInBusy reports whether the stand-in scheduler or a kubelet has work
// queued or a timer set.
func (p *Plane) StandInBusy() bool { return p.cluster.busy() }

// quietLogs sends klog's output to w (nil: nowhere) and lowers the
// verbosity the ktesting package sets for tests to 0, so a plane does not
// log its every request.
func quietLogs(w io.Writer) {
	if w == nil {
		w = io.Discard
	}
	var fs flag.FlagSet
	klog.InitFlags(&fs)
	_ = fs.Set("logtostderr", "false")
	_ = fs.Set("alsologtostderr", "false")
	_ = fs.Set("stderrthreshold", "FATAL")
	_ = fs.Set("v", "0")
	klog.SetOutput(w)
	ktesting.SetDefaultVerbosity(0)
}

// HeapInUse returns the Go heap in use now, after a collection: what the
// plane's process holds.
func HeapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// RSS returns the process's resident set size from /proc, or 0 where that
// cannot be read.
func RSS() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	var size, resident uint64
	if _, err := fmt.Sscan(string(b), &size, &resident); err != nil {
		return 0
	}
	return resident * uint64(os.Getpagesize())
}
