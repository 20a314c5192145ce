// Package lsptest is what the language server's Go tests share: the client end of a
// connection to dws lsp. Only tests import it.
package lsptest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/textproto"
	"strconv"

	"go.lsp.dev/jsonrpc2"
)

// Stream is the client's end of conn: it writes as go.lsp.dev's header stream does, and
// reads each message into bytes of its own. go.lsp.dev's own stream reads every frame
// into one reused buffer, and the protocol package decodes a result with strings that
// point into it: a code action's title could read as part of the publishDiagnostics
// framed after it ("ishDiagnostics\",\"params\":…").
func Stream(conn io.ReadWriteCloser) jsonrpc2.Stream {
	return ownedFrames{jsonrpc2.NewStream(conn), textproto.NewReader(bufio.NewReader(conn))}
}

type ownedFrames struct {
	jsonrpc2.Stream // Write and Close; its Read is never called
	in              *textproto.Reader
}

func (f ownedFrames) Read(context.Context) (jsonrpc2.Message, int64, error) {
	header, err := f.in.ReadMIMEHeader()
	if err != nil {
		return nil, 0, err
	}
	n, err := strconv.Atoi(header.Get("Content-Length"))
	if err != nil || n < 0 {
		return nil, 0, fmt.Errorf("a frame without a Content-Length: %v", header)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(f.in.R, body); err != nil {
		return nil, 0, err
	}
	m, err := jsonrpc2.DecodeMessage(body)
	return m, int64(n), err
}
