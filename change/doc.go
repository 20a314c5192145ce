// Package change compares two versions of workflow definitions (SPEC §17): it pairs
// units by id, lists the nodes, edges and values added, removed, changed and
// retargeted, classes each change breaking, feature or cosmetic, judges the version
// bump against the class, counts the paths kept, lost and gained per end state, and
// says for each position a run can be persisted at whether a run paused there on OLD
// can go on under NEW.
//
// It knows no format. Each dialect describes its definitions as Units (lint.Dialect's
// Units part): the unit's id and version, its nodes with their type and classified
// values, its edges, entry, exits, persisted positions and what each node reads and
// produces. The path counts come from package sim, on the explorations the dialects'
// own simulators made of the two versions.
//
// Decisions where the spec is silent:
//
//   - Pairing: units by Kind:Name, after the unit renames of .dws.yaml (renames:,
//     from/to unit ids without version); nodes by id within a unit, after the node
//     renames declared for the unit's NEW id. Nothing is guessed: an undeclared
//     rename is a removal and an addition. A unit defined twice on one side is a
//     problem of the report; the first (in path order) is compared.
//   - Values: a node's values are its canonical form but for its id, its type and its
//     routing fields, split into leaves by JSON Pointer (objects are split, arrays and
//     scalars are one value each, compared as RFC 8785 bytes). The unit's own values
//     are everything outside its nodes but its name and version.
//   - Classes: a value is cosmetic (descriptions, names, titles, tags), a limit (a
//     bound whose lowering is breaking and raising a feature; a limit added or
//     removed is a feature) or a feature (everything else: prompt, model, SQL, URL,
//     agent, condition). Adding a node or an edge is a feature; removing either,
//     changing a node's type, retargeting an edge (the same routing field of the same
//     node naming another node) or changing the entry is breaking. A routing field
//     that ended the run and now names a node is an added edge; one that named a node
//     and now ends the run is a removed edge.
//   - "An end state or a path to it lost" is breaking when NEW has fewer paths ending
//     in some end state than OLD (none at all: the end state is lost). Paths that are
//     merely different (a step inserted before the end makes every path through it a
//     new one) are reported as lost and gained, but are no breaking change by
//     themselves: the edge changes that made them are classed on their own. Runs cut
//     by a bound are not judged.
//   - "A step now reading an output that no earlier step produces": a node's read is
//     missing when no node that can run before it (any node with a path to it; the
//     node itself only on a cycle) produces it. It is breaking when NEW's node misses
//     a read that OLD's node (by id, after renames) did not miss or did not make.
//   - Versions: Cortex vMAJOR.MINOR, DWS MAJOR.MINOR.PATCH (a leading v, a
//     pre-release and build suffix are read and ignored for the comparison), DireClaw
//     an integer. Breaking needs a MAJOR bump (a MINOR below 1.0), feature a MINOR,
//     cosmetic a PATCH (Cortex: a MINOR; DireClaw: any increment). A bump is the
//     highest part that rose (1.4.2 → 2.0.0 is major, 1.4.2 → 1.5.7 minor). Any change
//     with the version unchanged is version-not-bumped, a smaller bump than needed
//     version-bump-too-small, a lower version version-decreased (whether or not
//     anything changed). A version that does not parse in its scheme is not judged;
//     the report says so.
//   - In flight: a run persisted at a node is about to run it, with every node before
//     it done. Its verdict under NEW: needs-mapping when the node is gone (not
//     renamed); incompatible when its type changed, or when a node the run would
//     still run under NEW reads an output that no node the run ran under OLD and no
//     node between the position and the reader under NEW produced (and OLD's node did
//     not miss it already); continues-changed when the node, or any node reachable
//     from it under NEW, is new or changed other than cosmetically (its values, type
//     or routing), or when the unit's own non-cosmetic values changed; else continues.
//   - Node hashes: a node's own hash is the SHA-256 of its type and its values (path
//     and canonical value, in path order): its canonical form without its id and its
//     routing fields, plus what the dialect adds as its values (a DireClaw agent's
//     provider and model, a Cortex ai step's output schema from the registry). Its key
//     combines the own hashes of its loop (a strongly connected set of nodes; a node on
//     none is a loop of one), the keys of the nodes with an edge into the loop with the
//     edges' labels and the node each enters, the loop's own edges (which member routes
//     to which, by which label: its members told apart without their ids by colour
//     refinement of their own hashes and edges), and the unit's own values but the
//     cosmetic ones. Ids take no part, so a declared rename changes no hash. A node
//     must run again when its key changed: because it is new, because it changed
//     itself, or because of a chain of nodes upstream whose keys changed, from one that
//     changed itself (or, when none did, because what leads into it changed: an edge
//     into it, the unit's values).
//   - Publishing: a unit's published entry is the canonical checksum of its part of
//     the file (the subtree at Unit.Pointer; the whole file, without its signature, for
//     a one-unit file) and every node's own hash (so a DireClaw agent's new model
//     mutates the workflows whose steps use it); a unit that is part of a file adds the
//     hash of all its own values under the key #unit (a DireClaw workflow's version is
//     mutated by new orchestrator-wide settings too). Two entries are the same version when
//     both agree; the path is kept for people only. validate reports version-mutated and
//     version-unpublished only when the lockfile has a published section at all.
//   - Fingerprints: the first 16 hex digits of SHA-256 over the unit id (without
//     version), the change kind, the node id and where (field path, edge label, end
//     state), each followed by a newline (Fingerprint). They survive edits elsewhere
//     in the file and moves of the file; they change when the unit or node is renamed.
package change
