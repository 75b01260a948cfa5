package export

import "strings"

// Result is one export: the world's manifests and the replay's commands,
// ready to be written as one self-contained script (Script) or as
// world.yaml beside replay.sh (WorldYAML, ReplayScript).
type Result struct {
	// Source names what was exported, for the header: a file, or "the
	// sandbox".
	Source string
	// World are the manifests of the objects the setup creates before it
	// does anything else, each a YAML document for kubectl apply.
	World []string
	// Setup and Learner are the replay's lines: the rest of the setup, then
	// what the learner did. A line may hold a here-document, and so
	// newlines.
	Setup, Learner []string
	// Images are the container images the export names, in the order met.
	Images []string

	picks, waitsForPods bool
}

// Result returns what the exporter has been given so far. source names it
// in the header.
func (x *Exporter) Result(source string) *Result {
	return &Result{Source: source, World: x.world, Setup: x.setup, Learner: x.learner, Images: x.images,
		picks: x.picks, waitsForPods: x.waitsForPods}
}

// WorldYAML is world.yaml: the world's manifests as one stream of YAML
// documents, for kubectl apply -f. It is nil when the setup creates
// nothing.
func (r *Result) WorldYAML() []byte {
	if len(r.World) == 0 {
		return nil
	}
	return []byte("# The world " + r.Source + " starts from, for kubectl apply -n NAMESPACE -f world.yaml.\n" +
		"# Only what a client sends: the controllers create the pods, and status is theirs to write.\n" +
		strings.Join(r.World, "---\n"))
}

// Script is the export as one self-contained script: the world's manifests
// in a here-document, then the replay.
func (r *Result) Script() string {
	return r.script(kubectl("apply -f - <<'EOF'\n" + strings.Join(r.World, "---\n") + "EOF"))
}

// ReplayScript is replay.sh, which applies world.yaml from its own
// directory before the replay.
func (r *Result) ReplayScript() string {
	return r.script(kubectl(`apply -f "$(dirname "$0")/world.yaml"`))
}

// script writes the whole script around apply, the line that applies the
// world.
func (r *Result) script(apply string) string {
	b := strings.Replace(header, "SOURCE", r.Source, 1)
	var images []string
	for _, img := range r.Images {
		// Plain nginx, which the scripts' ReplicaSets run, is in every
		// registry; the Deployments' versions are the simulator's names.
		if img != "nginx" {
			images = append(images, img)
		}
	}
	if len(images) > 0 {
		b += strings.ReplaceAll(strings.Replace(imagesNote, "IMAGES", strings.Join(images, ", "), 1), "IMAGE", images[0])
	}
	b += "set -euo pipefail\nNAMESPACE=\"${NAMESPACE:-rlab}\"\n\n"
	if r.picks {
		b += pickFunc
	}
	if r.waitsForPods {
		b += waitPodsFunc
	}
	b += `kubectl get namespace "$NAMESPACE" >/dev/null 2>&1 || kubectl create namespace "$NAMESPACE"` + "\n\n"
	if len(r.World) > 0 {
		b += "# The world the setup builds: what it creates before anything else.\n" + apply + "\n"
	} else {
		b += "# The setup creates nothing: the world starts as an empty namespace.\n"
	}
	if len(r.Setup) > 0 {
		b += "\n# The rest of the setup.\n" + strings.Join(r.Setup, "\n") + "\n"
	}
	b += "\n# What was done.\n"
	if len(r.Learner) == 0 {
		return b + "# Nothing yet.\n"
	}
	return b + strings.Join(r.Learner, "\n") + "\n"
}

// header opens every export; SOURCE is what was exported.
const header = `#!/usr/bin/env bash
# SOURCE, exported by rlab: the world it starts from, then what was done in it, as kubectl.
# Run it against a cluster of your own (kind, minikube, ...), in a namespace of its own:
#   NAMESPACE=rlab bash rlab-export.sh
# The simulator's nodes are not exported: your cluster has its own. What only the simulator
# can do (faults, stepping, its inside views) is left as comments that say what to do by hand,
# and expects as comments with the kubectl to look with.
`

// imagesNote says how to give a cluster the simulator's images: IMAGES
// lists them, IMAGE is the first.
const imagesNote = `#
# The images are the simulator's names (IMAGES): a registry need not have them,
# and a pod whose image cannot be pulled never becomes Ready. Give your cluster stand-ins first,
# on kind for example:
#   docker pull nginx:stable && docker tag nginx:stable IMAGE && kind load docker-image IMAGE
# (minikube: minikube image load IMAGE after the same tag).
`

// pickFunc is the shell function that picks pods on a cluster as --pick
// picks them in the simulator: by creation order, which a cluster records
// as creationTimestamp, to the second (pods created in the same second
// keep the API server's order, by name).
const pickFunc = `# pick KIND SELECTOR HOW COUNT prints kind/name of COUNT objects SELECTOR matches, as the simulator's
# --pick does: HOW is oldest, newest, random, or an index from 0 in creation order. It fails when
# fewer match.
pick() {
	local names
	names=$(kubectl -n "$NAMESPACE" get "$1" -l "$2" --sort-by=.metadata.creationTimestamp -o name) || return 1
	case $3 in
	oldest) names=$(printf '%s\n' "$names" | head -n "$4") ;;
	newest) names=$(printf '%s\n' "$names" | tail -n "$4") ;;
	random) names=$(printf '%s\n' "$names" | shuf -n "$4") ;;
	*) names=$(printf '%s\n' "$names" | tail -n +"$(($3 + 1))" | head -n "$4") ;;
	esac
	if [ "$(printf '%s\n' "$names" | grep -c .)" -lt "$4" ]; then
		echo "pick: fewer than $4 $1 match -l $2" >&2
		return 1
	fi
	printf '%s\n' "$names"
}

`

// waitPodsFunc is the shell function that waits for the number of pods
// the simulated world rests with, and of Ready ones, none being deleted.
const waitPodsFunc = `# wait_pods N R waits (up to 5 minutes) until the namespace holds N pods, R of them Ready, none of
# them being deleted.
wait_pods() {
	local out
	for _ in $(seq 150); do
		out=$(kubectl -n "$NAMESPACE" get pods -o jsonpath='{range .items[*]}{.metadata.name}|{.metadata.deletionTimestamp}|{range .status.conditions[?(@.type=="Ready")]}{.status}{end}{"\n"}{end}') || return 1
		if [ "$(printf '%s\n' "$out" | grep -c .)" -eq "$1" ] && [ "$(printf '%s\n' "$out" | grep -c '|True$')" -eq "$2" ] &&
			! printf '%s\n' "$out" | grep -q '^[^|]*|[^|]'; then
			return 0
		fi
		sleep 2
	done
	echo "wait_pods: the namespace did not come to hold $1 pods, $2 of them Ready" >&2
	return 1
}

`
