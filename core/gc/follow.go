package gc

import (
	"github.com/reconcilelab/rlab/core/sim"
)

// Follow makes the collector follow more kinds from now on. A kind it does
// not follow yet gets a monitor; a kind it follows gains the roles given (a
// ReplicaSet becomes a dependent too, once Deployments exist). In its next
// step the collector lists each kind that changed, a kind it already
// watched again, so that the graph learns the owner references it did not
// keep before. Calling it with nothing new does nothing, and takes no step.
//
// Upstream's collector follows every deletable resource from the start. The
// world calls Follow with DeploymentKinds in the step that stores the first
// Deployment, when it wakes the Deployment controller, so that a world
// without Deployments runs, step for step, as before they existed.
func (g *GarbageCollector) Follow(sch sim.Scheduler, kinds []Followed) {
	var changed []int
	for _, k := range kinds {
		i := g.monitorOf(k)
		if i < 0 {
			g.monitors = append(g.monitors, newMonitor(k))
			changed = append(changed, len(g.monitors)-1)
			continue
		}
		m := &g.monitors[i]
		if (k.Owner && !m.owner) || (k.Dependent && !m.dependent) {
			m.owner = m.owner || k.Owner
			m.dependent = m.dependent || k.Dependent
			changed = append(changed, i)
		}
	}
	if len(changed) > 0 {
		sch.After(0, g.cfg.Name, eventFollow, changed)
	}
}

// monitorOf returns the index of the monitor of k's kind, or -1.
func (g *GarbageCollector) monitorOf(k Followed) int {
	for i := range g.monitors {
		if g.monitors[i].kind == k.Kind {
			return i
		}
	}
	return -1
}

// follow lists the kinds Follow added or changed. A monitor that is
// watching closes its watch and lists again; one whose list is in flight,
// or that waits out a back-off before listing, needs nothing more; one
// whose watch is being opened lists again once it is open (relist).
func (g *GarbageCollector) follow(ctx *sim.Context, monitors []int) sim.Report {
	added, widened, again := "", "", ""
	for _, i := range monitors {
		m := &g.monitors[i]
		switch m.state {
		case monitorNotStarted:
			added = and(added, m.kind.Resource()+" as "+roles(m))
			g.list(ctx, i)
			continue
		case monitorWatching:
			m.lw.CloseWatch(g.cfg.Server)
			g.list(ctx, i)
			again = and(again, m.kind.Resource())
		case monitorOpening:
			m.relist = true
			again = and(again, m.kind.Resource())
		}
		widened = and(widened, m.kind.Resource()+" as "+roles(m))
	}
	summary := "Deployments exist: following "
	switch {
	case added != "" && widened != "":
		summary += added + ", and " + widened
	default:
		summary += added + widened
	}
	if again != "" {
		summary += "; listing " + again + " again, so that the graph holds the owner references it did not keep"
	}
	return g.reportText("GraphBuilder.startMonitors", summary)
}

// roles names what a monitor's kind is followed for.
func roles(m *monitor) string {
	switch {
	case m.owner && m.dependent:
		return "owners and dependents"
	case m.owner:
		return "owners"
	}
	return "dependents"
}
