package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// dws reads the client's messages itself, before the jsonrpc2 library sees them: the
// library's decoder ends the connection, silently, at the first message it cannot
// decode (not JSON, an array, a float id, "jsonrpc": "1.0", neither method nor result),
// and the process then exits 0 without a word. So intake frames each message, checks it
// against JSON-RPC 2.0 and LSP's lifecycle, and hands the library only well-formed
// messages, built anew:
//   - a body that is not JSON is answered -32700 ParseError (id null);
//   - a message that is not a valid request, notification or response is answered
//     -32600 InvalidRequest, with the request's id when it has a valid one (else null);
//     a batch (an array) is one of them: LSP does not use batches;
//   - a message over maxMessage bytes is skipped unread and answered InvalidRequest;
//   - before initialize, a request is answered -32002 ServerNotInitialized and a
//     notification dropped; a second initialize is InvalidRequest; after shutdown every
//     request is InvalidRequest and every notification but exit is dropped (LSP 3.17);
//   - exit ends the session, as a success after shutdown and a failure (exit code 1)
//     without it.
// Only a broken frame (a header without a Content-Length that reads as one, the stream
// ending inside a message) ends the session early: the stream cannot be read past it.
// That is a *SessionError, which dws lsp writes on stderr.

// maxMessage bounds the body of one message: a document of source.MaxFileSize, with
// every byte escaped as JSON's \u00XX, fits several times over.
const maxMessage = 64 << 20

// maxHeaderLine bounds one header line; LSP's headers are a few dozen bytes.
const maxHeaderLine = 4096

// SessionError ends a session with exit code 1: the client sent exit without shutdown
// first, or a frame dws cannot read past. Its text says which.
type SessionError struct{ Reason string }

func (e *SessionError) Error() string { return e.Reason }

// errEndOfSession is what intake reads once exit has been read: the library stops.
var errEndOfSession = errors.New("dws lsp: exit")

// intake is the server's end of the connection: it reads and checks the client's
// messages (see above) and writes through the library's LSP framing.
type intake struct {
	max int // maxMessage
	in  *bufio.Reader
	out jsonrpc2.Stream
	s   *Server
	ctx context.Context

	// Read on the read goroutine only.
	initialized, shutdown, exited bool
}

func newIntake(ctx context.Context, s *Server, r io.Reader, w io.Writer) *intake {
	return &intake{max: maxMessage, in: bufio.NewReader(r), out: jsonrpc2.NewHeaderStream(rwc{nil, w}), s: s, ctx: ctx}
}

// Write writes one message, framed.
func (i *intake) Write(ctx context.Context, m jsonrpc2.Message) (int64, error) {
	return i.out.Write(ctx, m)
}

// Close does nothing: stdin and stdout are the process's (see Serve).
func (i *intake) Close() error { return nil }

// Read returns the next message the library may handle, answering or dropping every
// other one on the way.
func (i *intake) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if i.exited {
			return nil, 0, errEndOfSession
		}
		body, size, err := i.frame()
		if err != nil {
			return nil, 0, err
		}
		if body == nil {
			continue // too large: answered
		}
		m, bad := decode(body)
		if bad != nil {
			i.answer(bad.id, bad.err)
			continue
		}
		if !i.admit(m) {
			continue
		}
		if n, ok := m.(*jsonrpc2.Notification); ok {
			i.apply(n.Method(), n.Params())
		}
		return m, size, nil
	}
}

// answer writes an error response the library never sees the request of.
func (i *intake) answer(id jsonrpc2.ID, err *jsonrpc2.Error) {
	_, _ = i.out.Write(i.ctx, jsonrpc2.NewResponse(id, nil, err))
}

// frame reads one message's body: nil (and no error) for one over maxMessage, which is
// skipped and answered.
func (i *intake) frame() ([]byte, int64, error) {
	length, read, started := int64(-1), int64(0), false
	for {
		line, err := i.headerLine()
		read += int64(len(line))
		text := strings.TrimRight(string(line), "\r\n")
		switch {
		case errors.Is(err, io.EOF) && !started && text == "":
			return nil, 0, io.EOF // between messages: the client closed the stream
		case errors.Is(err, io.EOF):
			return nil, 0, &SessionError{"the input ended inside a message's header"}
		case err != nil:
			return nil, 0, err
		}
		if text == "" {
			if !started {
				continue // a stray line break between messages
			}
			break
		}
		started = true
		name, value, ok := strings.Cut(text, ":")
		if !ok || !headerName(name) {
			return nil, 0, &SessionError{fmt.Sprintf("a message header line is not \"Name: value\": %q", clip(text))}
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			v := strings.TrimSpace(value)
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 || v == "" || v[0] < '0' || v[0] > '9' {
				return nil, 0, &SessionError{fmt.Sprintf("a message's Content-Length is not a number of bytes: %q", clip(value))}
			}
			length = n
		}
	}
	if length < 0 {
		return nil, 0, &SessionError{"a message's header has no Content-Length"}
	}
	if length > int64(i.max) {
		// The frame is intact: skip the body and go on.
		if _, err := io.CopyN(io.Discard, i.in, length); err != nil {
			return nil, 0, &SessionError{"the input ended inside a message"}
		}
		i.answer(jsonrpc2.ID{}, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "dws lsp: a message of more than %d bytes; it was skipped", i.max))
		return nil, 0, nil
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(i.in, body); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, 0, &SessionError{fmt.Sprintf("the input ended inside a message (its Content-Length says %d bytes)", length)}
		}
		return nil, 0, err
	}
	return body, read + length, nil
}

// headerLine reads one header line, at most maxHeaderLine bytes.
func (i *intake) headerLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := i.in.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxHeaderLine {
			return line, &SessionError{fmt.Sprintf("a message header line is longer than %d bytes", maxHeaderLine)}
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// headerName reports whether s is a header field's name (an HTTP token).
func headerName(s string) bool {
	for _, c := range []byte(s) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return s != ""
}

// clip is the start of s, for a message.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// rejection is a message answered with an error instead of handled.
type rejection struct {
	id  jsonrpc2.ID
	err *jsonrpc2.Error
}

func invalid(id jsonrpc2.ID, format string, args ...any) *rejection {
	return &rejection{id, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "dws lsp: "+format, args...)}
}

// decode checks body as one JSON-RPC 2.0 message and builds it anew.
func decode(body []byte) (jsonrpc2.Message, *rejection) {
	var top json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return nil, &rejection{jsonrpc2.ID{}, jsonrpc2.Errorf(jsonrpc2.ParseError, "dws lsp: a message that is not JSON: %v", err)}
	}
	switch bytes.TrimLeft(top, " \t\r\n")[0] {
	case '{':
	case '[':
		return nil, invalid(jsonrpc2.ID{}, "a batch (an array of messages); LSP sends each message on its own")
	default:
		return nil, invalid(jsonrpc2.ID{}, "a message that is not a JSON object")
	}
	var f map[string]json.RawMessage
	if err := json.Unmarshal(top, &f); err != nil {
		return nil, invalid(jsonrpc2.ID{}, "a message that is not a JSON object: %v", err)
	}
	rawID, hasID := f["id"]
	id, idOK := idOf(rawID)
	rawMethod, hasMethod := f["method"]
	_, hasResult := f["result"]
	rawErr, hasError := f["error"]
	// Only a request's own id answers it: a response's id names one of the server's
	// requests, and echoing it would answer that one.
	answerTo := jsonrpc2.ID{}
	if hasMethod && idOK {
		answerTo = id
	}
	var version string
	if json.Unmarshal(f["jsonrpc"], &version) != nil || version != "2.0" {
		return nil, invalid(answerTo, `"jsonrpc" must be "2.0"`)
	}
	if hasID && !idOK {
		return nil, invalid(jsonrpc2.ID{}, `"id" must be an integer or a string, not %s`, clip(string(rawID)))
	}
	if !hasMethod {
		switch {
		case !hasResult && !hasError:
			return nil, invalid(jsonrpc2.ID{}, `a message with neither "method" nor "result" or "error"`)
		case hasResult && hasError:
			return nil, invalid(jsonrpc2.ID{}, `a response with both "result" and "error"`)
		case !hasID:
			return nil, invalid(jsonrpc2.ID{}, `a response without "id"`)
		case hasError:
			var e struct {
				Code    *int64          `json:"code"`
				Message *string         `json:"message"`
				Data    json.RawMessage `json:"data"`
			}
			if json.Unmarshal(rawErr, &e) != nil || e.Code == nil || e.Message == nil {
				return nil, invalid(jsonrpc2.ID{}, `a response whose "error" is not {"code": integer, "message": string}`)
			}
			return jsonrpc2.NewResponse(id, nil, &jsonrpc2.Error{Code: jsonrpc2.Code(*e.Code), Message: *e.Message, Data: jsonrpc2.RawMessage(e.Data)}), nil
		}
		return jsonrpc2.NewResponse(id, jsonrpc2.RawMessage(f["result"]), nil), nil
	}
	var method string
	if json.Unmarshal(rawMethod, &method) != nil {
		return nil, invalid(answerTo, `"method" must be a string`)
	}
	if hasResult || hasError {
		return nil, invalid(answerTo, `a request with "result" or "error"`)
	}
	params := jsonrpc2.RawMessage(f["params"])
	switch p := bytes.TrimSpace(params); {
	case len(p) == 0 || string(p) == "null":
		params = nil
	case p[0] != '{' && p[0] != '[':
		return nil, invalid(answerTo, `"params" must be an object or an array`)
	}
	if !hasID {
		return jsonrpc2.NewNotification(method, params), nil
	}
	return jsonrpc2.NewCall(id, method, params), nil
}

// idOf reads a request id: an integer or a string (LSP's integer | string).
func idOf(raw json.RawMessage) (jsonrpc2.ID, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return jsonrpc2.ID{}, false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return jsonrpc2.ID{}, false
		}
		return jsonrpc2.NewStringID(s), true
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return jsonrpc2.ID{}, false
	}
	return jsonrpc2.NewNumberID(n), true
}

// admit applies LSP's lifecycle to a well-formed message: it reports whether the
// library handles it, answering or dropping it otherwise.
func (i *intake) admit(m jsonrpc2.Message) bool {
	var (
		method string
		call   *jsonrpc2.Call
	)
	switch m := m.(type) {
	case *jsonrpc2.Call:
		method, call = m.Method(), m
	case *jsonrpc2.Notification:
		method = m.Method()
	default:
		return true // a response to one of the server's requests
	}
	switch {
	case method == protocol.MethodExit:
		i.exited = true
		i.s.end(i.shutdown)
		return false
	case !i.initialized:
		if call == nil {
			return false
		}
		if method != protocol.MethodInitialize {
			i.answer(call.ID(), jsonrpc2.Errorf(jsonrpc2.ServerNotInitialized, "dws lsp: %s before initialize: the server is not initialized yet", method))
			return false
		}
		// Initialized once the request is one the server can answer; params that do
		// not decode are answered InvalidParams, and the client may try again.
		var p protocol.InitializeParams
		i.initialized = protocol.Unmarshal(call.Params(), &p) == nil
		return true
	case i.shutdown:
		if call != nil {
			i.answer(call.ID(), jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "dws lsp: %s after shutdown: the server only waits for exit", method))
		}
		return false
	case call != nil && method == protocol.MethodInitialize:
		i.answer(call.ID(), jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "dws lsp: initialize again: the server is initialized already"))
		return false
	case call != nil && method == protocol.MethodShutdown:
		i.shutdown = true
	}
	return true
}

// apply applies one document-synchronisation notification as it is read. The protocol
// package dispatches every message on a goroutine of its own, so two didChange
// notifications could otherwise be applied in either order, and an incremental change
// to the wrong text. It runs on the read goroutine, where a panic would end the
// process: a notification that makes it panic (a bug) is dropped, as guard drops one
// that a handler panics on.
func (i *intake) apply(method string, params jsonrpc2.RawMessage) {
	switch method {
	case protocol.MethodTextDocumentDidOpen, protocol.MethodTextDocumentDidChange, protocol.MethodTextDocumentDidClose:
	default:
		return
	}
	<-i.s.ready // the client to publish to is known
	defer func() { _ = recover() }()
	switch method {
	case protocol.MethodTextDocumentDidOpen:
		var p protocol.DidOpenTextDocumentParams
		if protocol.Unmarshal(params, &p) == nil {
			i.s.didOpen(i.ctx, &p)
		}
	case protocol.MethodTextDocumentDidChange:
		var p protocol.DidChangeTextDocumentParams
		if protocol.Unmarshal(params, &p) == nil {
			i.s.didChange(i.ctx, &p)
		}
	case protocol.MethodTextDocumentDidClose:
		var p protocol.DidCloseTextDocumentParams
		if protocol.Unmarshal(params, &p) == nil {
			i.s.didClose(i.ctx, &p)
		}
	}
}

// rwc joins stdin and stdout into the one stream the protocol package writes.
type rwc struct {
	io.Reader
	io.Writer
}

func (rwc) Close() error { return nil }
