package lint

// SetBeforeRead sets what runs between a directory's stat and its read, for tests
// of what happens to the directory at that moment.
func SetBeforeRead(f func(dir string)) { beforeRead = f }
