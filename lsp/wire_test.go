package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The messages a client writes, as raw frames to the real dws lsp process: what the
// editor client cannot send (bodies that are not JSON, arrays, float ids, broken
// headers) and what it would not (requests before initialize, exit without shutdown).

// rawServer is dws lsp running as a process, spoken to in raw frames.
type rawServer struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	msgs   chan map[string]any
	stderr *syncBuffer
	exited chan struct{}
	code   int
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// deadline is how long the server may take to answer or exit before the test calls it
// hung: a bound to end a hang, not a measure of speed.
const deadline = 30 * time.Second

func startRaw(t *testing.T) *rawServer {
	t.Helper()
	bin, err := binary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "lsp")
	cmd.Dir = t.TempDir()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	r := &rawServer{t: t, cmd: cmd, stdin: stdin, msgs: make(chan map[string]any, 100), stderr: &syncBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go r.readFrames(bufio.NewReader(stdout))
	go func() {
		err := cmd.Wait()
		var ee *exec.ExitError
		switch {
		case errors.As(err, &ee):
			r.code = ee.ExitCode()
		case err != nil:
			r.code = -1
		}
		close(r.exited)
	}()
	t.Cleanup(func() {
		_ = stdin.Close()
		select {
		case <-r.exited:
		case <-time.After(deadline):
			_ = cmd.Process.Kill()
			<-r.exited
		}
	})
	return r
}

// read parses the server's frames into msgs until its stdout ends.
func (r *rawServer) readFrames(in *bufio.Reader) {
	defer close(r.msgs)
	for {
		length := -1
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\r\n")
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				length, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, max(length, 0))
		if _, err := io.ReadFull(in, body); err != nil {
			return
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			m = map[string]any{"unparsable": string(body)}
		}
		r.msgs <- m
	}
}

// raw writes bytes as they are.
func (r *rawServer) raw(s string) {
	r.t.Helper()
	if _, err := io.WriteString(r.stdin, s); err != nil {
		r.t.Fatalf("writing to the server: %v (stderr: %s)", err, r.stderr)
	}
}

// send writes body in one well-formed frame.
func (r *rawServer) send(body string) {
	r.t.Helper()
	r.raw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
}

// response is the next response the server writes (its notifications and requests
// are skipped).
func (r *rawServer) response(after string) map[string]any {
	r.t.Helper()
	timeout := time.After(deadline)
	for {
		select {
		case m, ok := <-r.msgs:
			if !ok {
				r.t.Fatalf("after %s: the server closed its output without answering (exit code %d? stderr: %q)", after, r.wait(), r.stderr)
			}
			if _, isRequest := m["method"]; !isRequest {
				return m
			}
		case <-timeout:
			r.t.Fatalf("after %s: no answer within %v", after, deadline)
		}
	}
}

// wait is the server's exit code once it has exited.
func (r *rawServer) wait() int {
	r.t.Helper()
	select {
	case <-r.exited:
		return r.code
	case <-time.After(deadline):
		r.t.Fatalf("the server did not exit within %v", deadline)
	}
	return 0
}

// errorOf is a response's error code and message, and its id as JSON.
func errorOf(m map[string]any) (code int, msg, id string) {
	b, _ := json.Marshal(m["id"])
	e, ok := m["error"].(map[string]any)
	if !ok {
		return 0, "", string(b)
	}
	c, _ := e["code"].(float64)
	s, _ := e["message"].(string)
	return int(c), s, string(b)
}

// expectError checks that the next response is an error with code, answering id.
func (r *rawServer) expectError(what string, code int, id string) {
	r.t.Helper()
	m := r.response(what)
	got, msg, gotID := errorOf(m)
	if got != code || gotID != id {
		r.t.Errorf("%s: answered %v, want error %d with id %s", what, m, code, id)
		return
	}
	if !strings.HasPrefix(msg, "dws lsp: ") {
		r.t.Errorf("%s: error message %q does not say who is speaking", what, msg)
	}
}

// alive checks that the server still answers a request (a hover on a document it does
// not know: InvalidParams, naming the document).
func (r *rawServer) alive(after string) {
	r.t.Helper()
	r.send(`{"jsonrpc":"2.0","id":"alive","method":"textDocument/hover","params":{"textDocument":{"uri":"file:///nowhere.json"},"position":{"line":0,"character":0}}}`)
	m := r.response("a hover after " + after)
	if code, msg, id := errorOf(m); code != -32602 || id != `"alive"` || !strings.Contains(msg, "no open document") {
		r.t.Fatalf("after %s, a hover: %v, want InvalidParams naming the document", after, m)
	}
}

const initialize = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`

// Every message that is not a JSON-RPC 2.0 request, notification or response is
// answered (ParseError for one that is not JSON, InvalidRequest for the rest, with the
// request's id when it has a valid one, else null), a request for a method dws does
// not serve is MethodNotFound whatever its params, and the server serves on. Requests
// before initialize are ServerNotInitialized, after shutdown InvalidRequest; exit
// after shutdown ends the process with 0 and nothing on stderr.
func TestRawMessages(t *testing.T) {
	r := startRaw(t)
	r.send(`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///a.json"},"position":{"line":0,"character":0}}}`)
	r.expectError("a request before initialize", -32002, "1")
	r.send(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	r.expectError("shutdown before initialize", -32002, "2")
	// A notification before initialize is dropped: the document is not opened.
	r.send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///nowhere.json","languageId":"json","version":1,"text":"{}"}}}`)
	r.send(initialize)
	if m := r.response("initialize"); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	r.alive("initialize (a didOpen before it dropped)")
	r.send(`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`)
	r.expectError("a second initialize", -32600, "3")
	r.alive("a second initialize")

	cases := []struct {
		body string
		code int
		id   string
	}{
		// Methods dws does not serve: MethodNotFound, with params absent or null too.
		{`{"jsonrpc":"2.0","id":7,"method":"custom/x"}`, -32601, "7"},
		{`{"jsonrpc":"2.0","id":8,"method":"custom/x","params":null}`, -32601, "8"},
		{`{"jsonrpc":"2.0","id":9,"method":"$/x"}`, -32601, "9"},
		{`{"jsonrpc":"2.0","id":"nine","method":"$/x","params":null}`, -32601, `"nine"`},
		{`{"jsonrpc":"2.0","id":10,"method":"textDocument/formatting"}`, -32601, "10"},
		// A method dws serves, without the params it needs.
		{`{"jsonrpc":"2.0","id":11,"method":"textDocument/hover"}`, -32602, "11"},
		{`{"jsonrpc":"2.0","id":12,"method":"textDocument/hover","params":null}`, -32602, "12"},
		// Not JSON.
		{`{"jsonrpc":"2.0","id":13,"method":`, -32700, "null"},
		{`hello`, -32700, "null"},
		{``, -32700, "null"},
		{"{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"x\"} trailing", -32700, "null"},
		// JSON, but no JSON-RPC 2.0 message.
		{`[]`, -32600, "null"},
		{`[{"jsonrpc":"2.0","id":15,"method":"shutdown"}]`, -32600, "null"},
		{`5`, -32600, "null"},
		{`null`, -32600, "null"},
		{`"text"`, -32600, "null"},
		{`{}`, -32600, "null"},
		{`{"jsonrpc":"2.0"}`, -32600, "null"},
		{`{"jsonrpc":"2.0","id":16}`, -32600, "null"},
		{`{"jsonrpc":"1.0","id":17,"method":"textDocument/hover","params":{}}`, -32600, "17"},
		{`{"id":18,"method":"textDocument/hover","params":{}}`, -32600, "18"},
		{`{"jsonrpc":2.0,"id":19,"method":"textDocument/hover","params":{}}`, -32600, "19"},
		{`{"jsonrpc":"2.0","id":[20],"method":"textDocument/hover","params":{}}`, -32600, "null"},
		{`{"jsonrpc":"2.0","id":21.5,"method":"textDocument/hover","params":{}}`, -32600, "null"},
		{`{"jsonrpc":"2.0","id":2e1,"method":"textDocument/hover","params":{}}`, -32600, "null"},
		{`{"jsonrpc":"2.0","id":{"n":22},"method":"textDocument/hover","params":{}}`, -32600, "null"},
		{`{"jsonrpc":"2.0","id":null,"method":"textDocument/hover","params":{}}`, -32600, "null"},
		{`{"jsonrpc":"2.0","id":23,"method":5}`, -32600, "23"},
		{`{"jsonrpc":"2.0","id":24,"method":"textDocument/hover","params":"x"}`, -32600, "24"},
		{`{"jsonrpc":"2.0","id":25,"method":"textDocument/hover","params":{},"result":1}`, -32600, "25"},
		{`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":7}`, -32600, "null"},
		{`{"jsonrpc":"2.0","id":26,"result":1,"error":{"code":1,"message":"x"}}`, -32600, "null"},
		{`{"jsonrpc":"2.0","result":1}`, -32600, "null"},
		{`{"jsonrpc":"2.0","id":27,"error":"broken"}`, -32600, "null"},
	}
	for _, c := range cases {
		what := "the message " + strconv.Quote(c.body)
		r.send(c.body)
		r.expectError(what, c.code, c.id)
		r.alive(what)
	}
	// Messages the server answers nothing to, and serves on: an unknown notification,
	// one with params that do not decode, a response to no request of its.
	for _, body := range []string{
		`{"jsonrpc":"2.0","method":"$/x"}`,
		`{"jsonrpc":"2.0","method":"custom/x","params":null}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":5}}`,
		`{"jsonrpc":"2.0","id":99,"result":null}`,
		`{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"no"}}`,
	} {
		r.send(body)
		r.alive("the message " + strconv.Quote(body))
	}
	// Line breaks between frames are tolerated.
	r.raw("\r\n")
	r.alive("a line break between frames")

	r.send(`{"jsonrpc":"2.0","id":"down","method":"shutdown"}`)
	if m := r.response("shutdown"); m["error"] != nil || m["id"] != "down" {
		t.Fatalf("shutdown: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","id":30,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///a.json"},"position":{"line":0,"character":0}}}`)
	r.expectError("a request after shutdown", -32600, "30")
	r.send(`{"jsonrpc":"2.0","method":"exit"}`)
	if code := r.wait(); code != 0 {
		t.Errorf("exit after shutdown: exit code %d, want 0", code)
	}
	if s := r.stderr.String(); s != "" {
		t.Errorf("exit after shutdown: stderr %q, want nothing", s)
	}
}

// exit without shutdown first ends the process with exit code 1 (LSP 3.17), saying so.
func TestRawExitWithoutShutdown(t *testing.T) {
	for _, first := range []string{"", initialize} {
		r := startRaw(t)
		if first != "" {
			r.send(first)
			r.response("initialize")
		}
		r.send(`{"jsonrpc":"2.0","method":"exit"}`)
		if code := r.wait(); code != 1 {
			t.Errorf("exit without shutdown (initialized: %v): exit code %d, want 1", first != "", code)
		}
		if s := r.stderr.String(); !strings.Contains(s, "exit without shutdown") {
			t.Errorf("exit without shutdown: stderr %q does not say why", s)
		}
	}
}

// A frame the server cannot read past ends the session with exit code 1 and a line on
// stderr saying why; the stream ending between frames is a quiet end.
func TestRawBrokenFrames(t *testing.T) {
	cases := []struct{ frames, why string }{
		{"Content-Length: abc\r\n\r\n{}", "Content-Length is not a number"},
		{"Content-Length: -5\r\n\r\n{}", "Content-Length is not a number"},
		{"Content-Type: application/json\r\n\r\n{}", "no Content-Length"},
		{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\r\n\r\n", "not \"Name: value\""},
		{"Content-Length: 100\r\n\r\n{}", "ended inside a message"},
		{"Content-Length: 10\r\n", "ended inside a message's header"},
		{"Content-Length: 1" + strings.Repeat("0", 5000) + "\r\n\r\n", "longer than"},
	}
	for _, c := range cases {
		r := startRaw(t)
		r.send(initialize)
		r.response("initialize")
		r.raw(c.frames)
		_ = r.stdin.Close()
		if code := r.wait(); code != 1 {
			t.Errorf("%q: exit code %d, want 1", c.frames, code)
		}
		if s := r.stderr.String(); !strings.HasPrefix(s, "dws lsp: ") || !strings.Contains(s, c.why) || strings.Count(s, "\n") != 1 {
			t.Errorf("%q: stderr %q, want one line saying %q", c.frames, s, c.why)
		}
	}
	r := startRaw(t)
	r.send(initialize)
	r.response("initialize")
	_ = r.stdin.Close()
	if code := r.wait(); code != 0 || r.stderr.String() != "" {
		t.Errorf("the input ending between frames: exit code %d, stderr %q; want 0 and nothing", code, r.stderr)
	}
}

// A message over the size bound is skipped unread and answered InvalidRequest, and the
// next one is read as usual.
func TestMessageOverTheBound(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"pad":"` + strings.Repeat("x", 200) + `"}}`
	next := `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`
	in := fmt.Sprintf("Content-Length: %d\r\n\r\n%sContent-Length: %d\r\n\r\n%s", len(big), big, len(next), next)
	var out bytes.Buffer
	s := New(nil, "test")
	i := newIntake(t.Context(), s, strings.NewReader(in), &out)
	i.max = 100
	i.initialized = true
	m, _, err := i.Read(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := m.(interface{ Method() string }); !ok || c.Method() != "shutdown" {
		t.Errorf("read %#v after the large message, want the shutdown request", m)
	}
	if want := `"id":null,"error":{"code":-32600,"message":"dws lsp: a message of more than 100 bytes; it was skipped"}`; !strings.Contains(out.String(), want) {
		t.Errorf("answered %q, want %s", out.String(), want)
	}
}
