package parity

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/reconcilelab/rlab/core/api"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// Both sides of a comparison are read as core/api objects. core/api's types
// carry the upstream JSON field names (core/printers writes real manifests
// from them), so an object of client-go's types goes to core/api through
// its JSON, and the fields rlab does not model fall away on the way. One
// reading of both worlds is what makes their states comparable at all.

// toAPI reads a client-go object as the core/api object of kind.
func toAPI(kind api.Kind, o any) (api.Object, error) {
	obj, ok := api.NewObject(kind)
	if !ok {
		return nil, fmt.Errorf("no core/api type for kind %s", kind)
	}
	b, err := json.Marshal(o)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, obj); err != nil {
		return nil, fmt.Errorf("reading a %s as core/api: %w", kind, err)
	}
	return obj, nil
}

// fromAPI writes a core/api object into a client-go one, the other way.
func fromAPI[T any](o any) (*T, error) {
	b, err := json.Marshal(o)
	if err != nil {
		return nil, err
	}
	var t T
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, err
	}
	return &t, nil
}

// listAPI lists every object of a kind in every namespace of a real API
// server, as core/api objects, with the list's resourceVersion.
func listAPI(ctx context.Context, c kubernetes.Interface, kind api.Kind) ([]api.Object, string, error) {
	opts := metav1.ListOptions{}
	var items []any
	var rv string
	switch kind {
	case api.KindPod:
		l, err := c.CoreV1().Pods("").List(ctx, opts)
		if err != nil {
			return nil, "", err
		}
		rv = l.ResourceVersion
		for i := range l.Items {
			items = append(items, &l.Items[i])
		}
	case api.KindReplicaSet:
		l, err := c.AppsV1().ReplicaSets("").List(ctx, opts)
		if err != nil {
			return nil, "", err
		}
		rv = l.ResourceVersion
		for i := range l.Items {
			items = append(items, &l.Items[i])
		}
	case api.KindReplicationController:
		l, err := c.CoreV1().ReplicationControllers("").List(ctx, opts)
		if err != nil {
			return nil, "", err
		}
		rv = l.ResourceVersion
		for i := range l.Items {
			items = append(items, &l.Items[i])
		}
	case api.KindDeployment:
		l, err := c.AppsV1().Deployments("").List(ctx, opts)
		if err != nil {
			return nil, "", err
		}
		rv = l.ResourceVersion
		for i := range l.Items {
			items = append(items, &l.Items[i])
		}
	case api.KindNode:
		l, err := c.CoreV1().Nodes().List(ctx, opts)
		if err != nil {
			return nil, "", err
		}
		rv = l.ResourceVersion
		for i := range l.Items {
			items = append(items, &l.Items[i])
		}
	case api.KindEvent:
		l, err := c.CoreV1().Events("").List(ctx, opts)
		if err != nil {
			return nil, "", err
		}
		rv = l.ResourceVersion
		for i := range l.Items {
			items = append(items, &l.Items[i])
		}
	default:
		return nil, "", fmt.Errorf("cannot list kind %s", kind)
	}
	out := make([]api.Object, 0, len(items))
	for _, it := range items {
		o, err := toAPI(kind, it)
		if err != nil {
			return nil, "", err
		}
		out = append(out, o)
	}
	return out, rv, nil
}
