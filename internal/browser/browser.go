// Package browser drives a real headless Chromium through the DevTools protocol over
// a pipe (--remote-debugging-pipe: JSON messages on file descriptors 3 and 4, each
// ended by a NUL byte), so tests can look at a page as a person does: load it, wait
// for its scripts, read its DOM, take a screenshot, and list every request it made.
// It needs no library and opens no port. It is for tests; the dws binary never uses it.
package browser

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Flags are the flags with which Chromium starts here: headless, as root, and with no
// connection of its own (background networking, component updates, sync), since the
// machine's network is closed. A proxy and a host rule that lead nowhere make any
// request the page itself makes fail rather than leave the machine.
var Flags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
	"--disable-extensions", "--mute-audio", "--hide-scrollbars",
	"--proxy-server=http://127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND",
	"--remote-debugging-pipe",
}

// Browser is one running Chromium.
type Browser struct {
	cmd  *exec.Cmd
	in   io.WriteCloser // Chromium's fd 3: commands
	out  io.ReadCloser  // Chromium's fd 4: answers and events
	dir  string
	mu   sync.Mutex
	wmu  sync.Mutex // one command on the pipe at a time
	next int64
	wait map[int64]chan message
	// events holds every event, in order, for Page to read.
	events   []message
	eventsCh chan struct{}
	done     chan struct{}
	err      error
}

type message struct {
	ID        int64           `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// Start starts Chromium (path, e.g. /usr/bin/chromium) with a new empty profile.
func Start(path string) (*Browser, error) {
	dir, err := os.MkdirTemp("", "dws-chromium-")
	if err != nil {
		return nil, err
	}
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	args := append(append([]string{}, Flags...), "--user-data-dir="+dir, "about:blank")
	cmd := exec.Command(path, args...)
	cmd.ExtraFiles = []*os.File{cmdR, outW} // fd 3 and fd 4
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	_ = cmdR.Close()
	_ = outW.Close()
	b := &Browser{cmd: cmd, in: cmdW, out: outR, dir: dir, wait: map[int64]chan message{},
		eventsCh: make(chan struct{}, 1), done: make(chan struct{})}
	go b.read()
	return b, nil
}

func (b *Browser) read() {
	r := bufio.NewReaderSize(b.out, 1<<20)
	for {
		raw, err := r.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			b.err = fmt.Errorf("chromium closed the pipe: %w", err)
			b.mu.Unlock()
			close(b.done)
			return
		}
		var m message
		if err := json.Unmarshal(raw[:len(raw)-1], &m); err != nil {
			continue
		}
		b.mu.Lock()
		if m.ID != 0 {
			if ch, ok := b.wait[m.ID]; ok {
				delete(b.wait, m.ID)
				ch <- m
			}
		} else {
			b.events = append(b.events, m)
			select {
			case b.eventsCh <- struct{}{}:
			default:
			}
		}
		b.mu.Unlock()
	}
}

// Call sends one command (to session, or to the browser when session is "") and
// decodes its result into result (when not nil).
func (b *Browser) Call(ctx context.Context, session, method string, params, result any) error {
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	ch := make(chan message, 1)
	b.mu.Lock()
	b.next++
	id := b.next
	b.wait[id] = ch
	b.mu.Unlock()
	msg, err := json.Marshal(message{ID: id, Method: method, SessionID: session, Params: p})
	if err != nil {
		return err
	}
	b.wmu.Lock()
	_, err = b.in.Write(append(msg, 0))
	b.wmu.Unlock()
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %s", method, m.Error.Message)
		}
		if result != nil {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-b.done:
		return fmt.Errorf("%s: %w", method, b.err)
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// Close ends Chromium and removes its profile.
func (b *Browser) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	_ = b.Call(ctx, "", "Browser.close", map[string]any{}, nil) // it may close the pipe before it answers
	cancel()
	_ = b.in.Close()
	ch := make(chan error, 1)
	go func() { ch <- b.cmd.Wait() }()
	var exit error // Chromium's exit status says nothing the tests need
	select {
	case exit = <-ch:
	case <-time.After(5 * time.Second):
		_ = b.cmd.Process.Kill()
		exit = <-ch
	}
	_ = exit
	_ = b.out.Close()
	return os.RemoveAll(b.dir)
}

// Page is one tab.
type Page struct {
	b       *Browser
	session string
}

// NewPage opens a blank tab of the given size (CSS pixels), with its network and
// page events on.
func (b *Browser) NewPage(ctx context.Context, width, height int) (*Page, error) {
	var t struct {
		TargetID string `json:"targetId"`
	}
	if err := b.Call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &t); err != nil {
		return nil, err
	}
	var s struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.Call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": t.TargetID, "flatten": true}, &s); err != nil {
		return nil, err
	}
	p := &Page{b: b, session: s.SessionID}
	for _, m := range []string{"Page.enable", "Network.enable", "Runtime.enable"} {
		if err := p.call(ctx, m, map[string]any{}, nil); err != nil {
			return nil, err
		}
	}
	err := p.call(ctx, "Emulation.setDeviceMetricsOverride",
		map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}, nil)
	return p, err
}

func (p *Page) call(ctx context.Context, method string, params, result any) error {
	return p.b.Call(ctx, p.session, method, params, result)
}

// Navigate loads url and waits for its load event.
func (p *Page) Navigate(ctx context.Context, url string) error {
	p.b.mu.Lock()
	seen := len(p.b.events)
	p.b.mu.Unlock()
	var r struct {
		ErrorText string `json:"errorText"`
	}
	if err := p.call(ctx, "Page.navigate", map[string]any{"url": url}, &r); err != nil {
		return err
	}
	if r.ErrorText != "" {
		return fmt.Errorf("loading %s: %s", url, r.ErrorText)
	}
	for {
		p.b.mu.Lock()
		for _, m := range p.b.events[seen:] {
			if m.SessionID == p.session && m.Method == "Page.loadEventFired" {
				p.b.mu.Unlock()
				return nil
			}
		}
		seen = len(p.b.events)
		p.b.mu.Unlock()
		select {
		case <-p.b.eventsCh:
		case <-p.b.done:
			return p.b.err
		case <-ctx.Done():
			return fmt.Errorf("loading %s: %w", url, ctx.Err())
		}
	}
}

// Eval evaluates a JavaScript expression in the page (awaiting it when it is a
// promise) and decodes its value, as JSON, into result.
func (p *Page) Eval(ctx context.Context, expr string, result any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := p.call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "awaitPromise": true, "returnByValue": true}, &r)
	if err != nil {
		return err
	}
	if e := r.ExceptionDetails; e != nil {
		return fmt.Errorf("%s %s", e.Text, e.Exception.Description)
	}
	if result == nil {
		return nil
	}
	if len(r.Result.Value) == 0 {
		return errors.New("the expression has no value")
	}
	return json.Unmarshal(r.Result.Value, result)
}

// Screenshot is a PNG of the whole page (beyond the window, down to its end).
func (p *Page) Screenshot(ctx context.Context) ([]byte, error) {
	var r struct {
		Data string `json:"data"`
	}
	err := p.call(ctx, "Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true}, &r)
	if err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(r.Data)
}

// ScreenshotOf is a PNG of the part of the page an element covers (CSS selector sel),
// beyond the window if need be.
func (p *Page) ScreenshotOf(ctx context.Context, sel string) ([]byte, error) {
	var box struct{ X, Y, W, H float64 }
	expr := `(() => { const r = document.querySelector(` + jsString(sel) + `).getBoundingClientRect();
		return {X: r.left + scrollX, Y: r.top + scrollY, W: r.width, H: r.height}; })()`
	if err := p.Eval(ctx, expr, &box); err != nil {
		return nil, err
	}
	var r struct {
		Data string `json:"data"`
	}
	err := p.call(ctx, "Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true,
		"clip": map[string]any{"x": box.X, "y": box.Y, "width": box.W, "height": box.H, "scale": 1}}, &r)
	if err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(r.Data)
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Requests lists the URL of every request the page made since it opened, the page
// itself included, in order.
func (p *Page) Requests() []string {
	p.b.mu.Lock()
	defer p.b.mu.Unlock()
	var out []string
	for _, m := range p.b.events {
		if m.SessionID != p.session || m.Method != "Network.requestWillBeSent" {
			continue
		}
		var e struct {
			Request struct {
				URL string `json:"url"`
			} `json:"request"`
		}
		if json.Unmarshal(m.Params, &e) == nil {
			out = append(out, e.Request.URL)
		}
	}
	return out
}

// Console lists what the page wrote to its console and the exceptions it threw.
func (p *Page) Console() []string {
	p.b.mu.Lock()
	defer p.b.mu.Unlock()
	var out []string
	for _, m := range p.b.events {
		if m.SessionID != p.session {
			continue
		}
		switch m.Method {
		case "Runtime.consoleAPICalled":
			var e struct {
				Type string `json:"type"`
				Args []struct {
					Value       any    `json:"value"`
					Description string `json:"description"`
				} `json:"args"`
			}
			if json.Unmarshal(m.Params, &e) == nil {
				line := e.Type + ":"
				for _, a := range e.Args {
					if a.Value != nil {
						line += fmt.Sprintf(" %v", a.Value)
					} else {
						line += " " + a.Description
					}
				}
				out = append(out, line)
			}
		case "Runtime.exceptionThrown":
			out = append(out, "exception: "+string(m.Params))
		}
	}
	return out
}
