package main

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/dwsdev/dws/canonical"
	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/source"
	"github.com/urfave/cli/v2"
)

func keygenCommand() *cli.Command {
	return &cli.Command{
		Name:  "keygen",
		Usage: "create an Ed25519 key pair for dws sign and dws verify",
		Description: `Writes NAME.key, the private key (PEM "PRIVATE KEY", PKCS #8, mode 0600), and
NAME.pub, the public key (PEM "PUBLIC KEY", PKIX): the forms openssl reads. Existing
files are never replaced unless --force is given.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "write NAME.key and NAME.pub", TakesFile: true},
			&cli.BoolFlag{Name: "force", Usage: "replace existing key files"},
		},
		Action: keygen,
	}
}

func signCommand() *cli.Command {
	return &cli.Command{
		Name:      "sign",
		Usage:     "sign definitions with an Ed25519 key, in their top-level signature property",
		ArgsUsage: "FILE…",
		Description: `Signs the canonical bytes of each file (see dws canonical) and stores the base64
signature in its top-level "signature" property, replacing the value that is there
or adding the property as the last one. The rest of the file is left as written,
byte for byte, so the checksum does not change. The file is rewritten atomically,
and only after the new text has been parsed again and its signature verified.

Exit status: 0 signed; 1 a file cannot be read, parsed or signed; 2 usage error, an
unusable key, or a file that cannot be written.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "key", Usage: "the private key (PEM PKCS #8, as dws keygen writes it)", TakesFile: true},
		},
		Action: sign,
	}
}

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "check the signature of signed definitions",
		ArgsUsage: "FILE…",
		Description: `Checks each file's top-level "signature" against its canonical bytes and the
public key, and prints "path: signature OK", "path: signature does not match" or
"path: no signature".

Exit status: 0 every signature is good; 1 a signature is missing or does not match,
or a file cannot be read or parsed; 2 usage error or an unusable key.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "pub", Usage: "the public key (PEM PKIX, as dws keygen writes it)", TakesFile: true},
		},
		Action: verify,
	}
}

func keygen(c *cli.Context) error {
	args := c.Args().Slice()
	if len(args) > 0 {
		return usagef("keygen: unexpected argument %q (name the key files with --out NAME)", args[0])
	}
	out := c.String("out")
	if out == "" {
		return usagef("keygen: --out NAME is required")
	}
	force := c.Bool("force")
	keyPath, pubPath := out+".key", out+".pub"
	for _, p := range []string{keyPath, pubPath} {
		if err := checkOutput("--out", p); err != nil {
			return err
		}
	}
	if !force {
		for _, p := range []string{keyPath, pubPath} {
			if _, err := os.Lstat(p); err == nil {
				return failf(c.App.ErrWriter, "%s already exists; use --force to replace it", p)
			}
		}
	}
	pub, priv, err := canonical.GenerateKey()
	if err != nil {
		return failedTo("keygen", err)
	}
	for _, k := range []struct {
		path string
		data []byte
		perm fs.FileMode
	}{{keyPath, priv, 0o600}, {pubPath, pub, 0o644}} {
		if err := writeKey(k.path, k.data, k.perm, force); errors.Is(err, fs.ErrExist) {
			return failf(c.App.ErrWriter, "%v", err)
		} else if err != nil {
			return outputError("--out", k.path, err)
		}
	}
	fmt.Fprintf(c.App.Writer, "wrote %s (private: keep it secret) and %s\n", keyPath, pubPath)
	return nil
}

func sign(c *cli.Context) error {
	args := c.Args().Slice()
	if len(args) == 0 {
		return usagef("sign: want at least one FILE")
	}
	keyFile := c.String("key")
	if keyFile == "" {
		return usagef("sign: --key FILE is required")
	}
	pemBytes, err := source.ReadFile(keyFile)
	if err != nil {
		return usagef("--key: %v", err)
	}
	priv, err := canonical.ParsePrivateKey(pemBytes)
	if err != nil {
		return usagef("--key %s: %v", keyFile, err)
	}
	failed := false
	for _, path := range args {
		if err := signFile(c.App.ErrWriter, path, priv); errors.As(err, new(usageError)) {
			return err // the file is fine; dws could not write it
		} else if err != nil {
			failed = true
			printLoadError(c.App.ErrWriter, err)
			continue
		}
		fmt.Fprintf(c.App.Writer, "%s: signed\n", printable.String(path))
	}
	if failed {
		return exitCode(exitFindings)
	}
	return nil
}

func signFile(stderr io.Writer, path string, priv ed25519.PrivateKey) error {
	// Write through a symbolic link, not over it.
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return &loadError{path, readErr(err)}
	}
	st, err := os.Stat(target)
	if err != nil {
		return &loadError{path, readErr(err)}
	}
	doc, err := loadDocument(target)
	if err != nil {
		return relabel(err, path)
	}
	if n := ambiguities(stderr, doc, path); n > 0 {
		return &loadError{path, fmt.Errorf("not signed: %d values read differently in YAML 1.1", n)}
	}
	inexactNumbers(stderr, doc, path)
	value := doc.Root.Value()
	before, err := canonical.Bytes(value)
	if err != nil {
		return &loadError{path, err}
	}
	sig, err := canonical.Sign(value, priv)
	if err != nil {
		return &loadError{path, err}
	}
	texts, err := placeSignature(doc, sig)
	if err != nil {
		return &loadError{path, fmt.Errorf("signing: %w", err)}
	}
	// Prove an edit before it replaces anything: the new text parses, holds exactly
	// this signature, has the same canonical bytes, and verifies.
	var text []byte
	for _, t := range texts {
		if err = checkSigned(target, doc.Format, t, before, sig, priv.Public().(ed25519.PublicKey)); err == nil {
			text = t
			break
		}
	}
	if text == nil {
		return &loadError{path, fmt.Errorf("signing: placing the signature in the file went wrong (%w); the file is unchanged", err)}
	}
	if err := canonical.WriteFile(target, text, st.Mode().Perm()); err != nil {
		return outputError("sign", path, err)
	}
	return nil
}

func checkSigned(path string, format source.Format, text, before []byte, sig string, pub ed25519.PublicKey) error {
	doc, err := source.Parse(path, text, format)
	if err != nil {
		return fmt.Errorf("the signed text does not parse: %w", err)
	}
	value := doc.Root.Value()
	if got, _ := canonical.Signature(value); got != sig {
		return errors.New("the signature property does not hold the new signature")
	}
	after, err := canonical.Bytes(value)
	if err != nil {
		return err
	}
	if !bytes.Equal(before, after) {
		return errors.New("the document's content changed")
	}
	return canonical.Verify(value, sig, pub)
}

// placeSignature returns doc's text with the top-level signature property set to
// sig, best placement first. It edits the text rather than re-encoding the
// document, so comments, key order and formatting survive: the existing value's
// span is replaced, or a new last member is added in the style of the members
// around it. In a YAML block mapping a new last line can change the value before
// it (a block scalar that keeps its trailing newlines), so the second choice is a
// new first line.
func placeSignature(doc *source.Document, sig string) ([][]byte, error) {
	root := doc.Root
	if root == nil || root.Kind != source.Object {
		return nil, errors.New("the top level is not an object, so there is no place for a signature")
	}
	text := []byte(doc.Text)
	quoted := `"` + sig + `"` // base64 needs no escaping in JSON or YAML
	if m := root.Member(canonical.SignatureProperty); m != nil {
		start, end := m.Value.Span.Start.Offset, m.Value.Span.End.Offset
		// An empty YAML value (`signature:`) has an empty span right after the colon.
		if doc.Format == source.YAML && start > 0 && text[start-1] == ':' {
			quoted = " " + quoted
		}
		return [][]byte{splice(text, int(start), int(end), quoted)}, nil
	}
	nl := "\n"
	if bytes.Contains(text, []byte("\r\n")) {
		nl = "\r\n"
	}
	open, closing := int(root.Span.Start.Offset), int(root.Span.End.Offset)-1
	flow := text[open] == '{'
	if flow && (closing <= open || text[closing] != '}') {
		return nil, errors.New("cannot find the end of the top-level object")
	}
	if doc.Format == source.JSON || flow {
		var sep string
		if doc.Format == source.JSON {
			sep = `"` + canonical.SignatureProperty + `": `
		} else {
			sep = canonical.SignatureProperty + ": "
		}
		if len(root.Members) == 0 {
			return [][]byte{splice(text, open+1, open+1, sep+quoted)}, nil
		}
		last := root.Members[len(root.Members)-1]
		at := int(last.Value.Span.End.Offset)
		if indent, ownLine := lineIndent(text, int(last.KeySpan.Start.Offset), open); ownLine {
			return [][]byte{splice(text, at, at, ","+nl+indent+sep+quoted)}, nil
		}
		return [][]byte{splice(text, at, at, ", "+sep+quoted)}, nil
	}
	// A block mapping: a new line after the line the last value ends on.
	indent, _ := lineIndent(text, int(root.Members[0].KeySpan.Start.Offset), -1)
	line := indent + canonical.SignatureProperty + ": " + quoted
	first := int(root.Members[0].KeySpan.Start.Offset) - len(indent)
	firstLine := splice(text, first, first, line+nl)
	at := int(root.Span.End.Offset)
	if at > 0 && text[at-1] == '\n' {
		return [][]byte{splice(text, at, at, line+nl), firstLine}, nil
	}
	if i := bytes.IndexByte(text[at:], '\n'); i >= 0 {
		return [][]byte{splice(text, at+i+1, at+i+1, line+nl), firstLine}, nil
	}
	return [][]byte{splice(text, len(text), len(text), nl+line), firstLine}, nil
}

// lineIndent returns the blanks before offset on its line, and whether offset is the
// first thing on its line and that line starts after the offset after.
func lineIndent(text []byte, offset, after int) (string, bool) {
	start := bytes.LastIndexAny(text[:offset], "\r\n") + 1
	indent := string(text[start:offset])
	if strings.TrimLeft(indent, " \t") != "" {
		return "", false
	}
	return indent, start > after
}

func splice(text []byte, start, end int, with string) []byte {
	out := make([]byte, 0, len(text)-(end-start)+len(with))
	out = append(out, text[:start]...)
	out = append(out, with...)
	return append(out, text[end:]...)
}

// relabel reports a load error under the path the user gave rather than the
// symbolic link's target.
func relabel(err error, path string) error {
	var le *loadError
	if errors.As(err, &le) {
		return &loadError{path, le.err}
	}
	return err
}

func verify(c *cli.Context) error {
	args := c.Args().Slice()
	if len(args) == 0 {
		return usagef("verify: want at least one FILE")
	}
	pubFile := c.String("pub")
	if pubFile == "" {
		return usagef("verify: --pub FILE is required")
	}
	pemBytes, err := source.ReadFile(pubFile)
	if err != nil {
		return usagef("--pub: %v", err)
	}
	pub, err := canonical.ParsePublicKey(pemBytes)
	if err != nil {
		return usagef("--pub %s: %v", pubFile, err)
	}
	failed := false
	out := c.App.Writer
	for _, path := range args {
		doc, err := loadDocument(path)
		if err != nil {
			failed = true
			printLoadError(c.App.ErrWriter, err)
			continue
		}
		inexactNumbers(c.App.ErrWriter, doc, path)
		ambiguous := ambiguities(c.App.ErrWriter, doc, path)
		value := doc.Root.Value()
		sig, _ := canonical.Signature(value)
		err = canonical.Verify(value, sig, pub)
		switch {
		case err == nil && ambiguous > 0:
			fmt.Fprintf(out, "%s: signature OK for YAML 1.2 readers only (%d values read differently in YAML 1.1)\n", path, ambiguous)
		case err == nil:
			fmt.Fprintf(out, "%s: signature OK\n", path)
			continue
		case errors.Is(err, canonical.ErrNoSignature):
			fmt.Fprintf(out, "%s: no signature\n", path)
		case errors.Is(err, canonical.ErrSignatureMismatch):
			fmt.Fprintf(out, "%s: signature does not match\n", path)
		default:
			fmt.Fprintf(out, "%s: signature does not match (%v)\n", path, err)
		}
		failed = true
	}
	if failed {
		return exitCode(exitFindings)
	}
	return nil
}

// writeKey writes a key file atomically; without force it never replaces a file,
// not even one that appears while it writes.
func writeKey(path string, data []byte, perm fs.FileMode, force bool) error {
	if force {
		return canonical.WriteFile(path, data, perm)
	}
	if err := canonical.CreateFile(path, data, perm); errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%w; use --force to replace it", err)
	} else if err != nil {
		return err
	}
	return nil
}
