package lsp

import (
	"context"
	"errors"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// codec marshals the LSP payloads with the protocol package's union-aware encoding, as
// protocol.NewServer's own codec does (dws builds its connection itself, to put guard
// in front of the handlers).
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case jsonrpc2.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	case *jsonrpc2.RawMessage:
		if m == nil || *m == nil {
			return []byte("null"), nil
		}
		return *m, nil
	}
	return protocol.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}

// served are the methods dws answers (requests) or acts on (notifications). Any other
// request is MethodNotFound, whatever its params (the protocol package would decode
// them first, and call absent or null params invalid); any other notification is
// ignored.
var served = map[string]bool{
	protocol.MethodInitialize: true, protocol.MethodInitialized: true, protocol.MethodShutdown: true,
	protocol.MethodExit: true, protocol.MethodSetTrace: true, protocol.MethodCancelRequest: true,
	protocol.MethodTextDocumentDidOpen: true, protocol.MethodTextDocumentDidChange: true,
	protocol.MethodTextDocumentDidClose: true, protocol.MethodTextDocumentDidSave: true,
	protocol.MethodWorkspaceDidChangeWatchedFiles: true, protocol.MethodWorkspaceDidChangeConfiguration: true,
	protocol.MethodTextDocumentHover: true, protocol.MethodTextDocumentCompletion: true,
	protocol.MethodTextDocumentDefinition: true, protocol.MethodTextDocumentReferences: true,
	protocol.MethodTextDocumentDocumentSymbol: true, protocol.MethodTextDocumentCodeAction: true,
	protocol.MethodTextDocumentRename: true, protocol.MethodTextDocumentCodeLens: true,
	protocol.MethodWorkspaceExecuteCommand: true,
}

// guard keeps one message the server cannot handle from ending the session. The
// jsonrpc2 library treats a notification handler's error, and any handler's panic, as
// a broken connection: it stops answering every request after it, shutdown included,
// while the process lives on. So:
//   - a notification is never an error: an unknown one (LSP lets a server ignore any
//     "$/" notification), one with params that do not decode, one that fails, is
//     dropped;
//   - a request's error is coded as LSP says: a method dws does not serve is
//     MethodNotFound, params that do not decode are InvalidParams (the protocol
//     package says ParseError, which JSON-RPC keeps for a message that is not JSON);
//   - a panic is an InternalError response to a request (nothing to a notification),
//     and the server keeps serving.
//
// Messages that are not JSON-RPC at all, and LSP's lifecycle, are intake's.
func guard(h jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
		call := req.IsCall()
		method := strings.Clone(req.Method()) // the request's own is borrowed from the frame
		if !served[method] {
			if !call {
				return nil, nil
			}
			return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "dws lsp: no method %s", method)
		}
		defer func() {
			if r := recover(); r != nil {
				result, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "dws lsp: %s failed (a bug; please report it): %v", method, r)
			}
			if !call {
				result, err = nil, nil
				return
			}
			if err != nil {
				result, err = nil, callError(method, err)
			}
		}()
		return h(ctx, req)
	}
}

// callError is a request's error as it goes on the wire.
func callError(method string, err error) error {
	switch {
	case errors.Is(err, jsonrpc2.ErrParse):
		msg := strings.TrimPrefix(err.Error(), jsonrpc2.ErrParse.Error()+": ")
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "dws lsp: invalid params for %s: %s", method, msg)
	case errors.Is(err, jsonrpc2.ErrMethodNotFound):
		return jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "dws lsp: no method %s", method)
	}
	var coded *jsonrpc2.Error
	if errors.As(err, &coded) {
		return err
	}
	return jsonrpc2.Errorf(jsonrpc2.InternalError, "dws lsp: %s: %v", method, err)
}
