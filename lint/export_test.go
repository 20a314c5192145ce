package lint

// SetBeforeRead sets what runs between a directory's or a file's stat and its read,
// for tests of what happens to it at that moment.
func SetBeforeRead(f func(path string)) { beforeRead = f }
