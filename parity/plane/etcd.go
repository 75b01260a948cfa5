package plane

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// startEtcd starts a one-member etcd inside this process, on two free
// loopback ports, with its data in a new directory under dir. It skips
// fsync: the data lives as long as the plane, and fsync is most of an
// etcd write's cost on a shared disk.
func startEtcd(dir string) (*embed.Etcd, string, error) {
	ports, err := freePorts(2)
	if err != nil {
		return nil, "", err
	}
	cfg := embed.NewConfig()
	cfg.Name = "parity"
	cfg.Dir = dir
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, "", err
	}
	clientURL := url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[0]))}
	peerURL := url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[1]))}
	cfg.ListenClientUrls = []url.URL{clientURL}
	cfg.AdvertiseClientUrls = []url.URL{clientURL}
	cfg.ListenPeerUrls = []url.URL{peerURL}
	cfg.AdvertisePeerUrls = []url.URL{peerURL}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.UnsafeNoFsync = true
	// etcd logs every request at info level; only its errors are news here.
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop().WithOptions(zap.IncreaseLevel(zapcore.ErrorLevel)))
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, "", fmt.Errorf("starting etcd: %w", err)
	}
	select {
	case <-e.Server.ReadyNotify():
	case <-time.After(60 * time.Second):
		e.Close()
		return nil, "", fmt.Errorf("etcd did not become ready within 60s")
	}
	return e, clientURL.String(), nil
}

// freePorts asks the kernel for n free loopback ports. Each is free when it
// is returned; another process could take it before etcd binds it, which on
// a machine of our own is unlikely enough to accept, as Kubernetes' own
// etcd test server does.
func freePorts(n int) ([]int, error) {
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free port: %w", err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
