package scenario

// containment is a way of holding a stub's processes.
type containment int

const (
	containNone containment = iota // the process group and the token only
	containCgroup2
	containFreezer
	containSubreaper
)

// containmentOrder is the order they are tried in, strongest first (Linux).
var containmentOrder = []containment{containCgroup2, containFreezer, containSubreaper}
