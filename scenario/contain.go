package scenario

// containment is a way of holding a stub's processes.
type containment int

const (
	containNone containment = iota // the process group and the token only
	containCgroup2
	containFreezer
	containSubreaper
)

var containmentNames = map[containment]string{containNone: "none", containCgroup2: "cgroup2", containFreezer: "freezer", containSubreaper: "subreaper"}

func (c containment) String() string { return containmentNames[c] }

// containmentOrder is the order they are tried in, strongest first (Linux).
var containmentOrder = []containment{containCgroup2, containFreezer, containSubreaper}
