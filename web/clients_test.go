package web_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/web"
)

// smallBuffers gives every accepted connection a small send buffer, so
// that a client that does not read fills it after a few pages.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(4096)
	}
	return c, err
}

// serveLimited serves srv on a real listener on 127.0.0.1:0 with the
// daemon's timeouts and the per-client connection limit.
func serveLimited(t *testing.T, h http.Handler, conns int) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, WriteTimeout: 30 * time.Second}
	go hs.Serve(web.LimitListener(smallBuffers{ln}, conns))
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// TestNonReadingClient checks issue 35.5: a client that pipelines requests
// on one connection and never reads the answers does not keep other
// visitors from being served, because a page-drawing turn is held only
// while a page is drawn, never while it is written.
func TestNonReadingClient(t *testing.T) {
	c := newArchive(t)
	srv := web.New(c.svc, web.Options{Address: service, Workers: 1, Wait: time.Second, ClientRequests: 16})
	addr := serveLimited(t, srv, 32)

	greedy, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer greedy.Close()
	greedy.(*net.TCPConn).SetReadBuffer(4096)
	go func() {
		for range 2000 {
			if _, err := fmt.Fprintf(greedy, "GET /games/1 HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
				return
			}
		}
	}()
	time.Sleep(500 * time.Millisecond) // its answers fill both buffers

	const visitors = 8
	var wg sync.WaitGroup
	errs := make(chan error, visitors)
	for i := range visitors {
		wg.Go(func() {
			cl := &http.Client{Timeout: 5 * time.Second}
			path := []string{"/", "/games/2", "/variants/chess", "/games/4"}[i%4]
			start := time.Now()
			resp, err := cl.Get("http://" + addr + path)
			if err != nil {
				errs <- fmt.Errorf("visitor %d, %s: %w", i, path, err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || time.Since(start) > 3*time.Second {
				errs <- fmt.Errorf("visitor %d, %s: %d after %v; want 200 in time", i, path, resp.StatusCode, time.Since(start))
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestClientLimits checks the per-client limits: a connection beyond
// connections_per_client is answered 503 at once, a request beyond
// requests_per_client 429, and others' are served.
func TestClientLimits(t *testing.T) {
	t.Run("connections", func(t *testing.T) {
		c := newClub(t)
		addr := serveLimited(t, web.New(c.svc, web.Options{Address: service}), 2)
		var open []net.Conn
		for range 2 {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			open = append(open, conn)
		}
		time.Sleep(100 * time.Millisecond) // both accepted
		third, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer third.Close()
		third.SetReadDeadline(time.Now().Add(3 * time.Second))
		got, _ := io.ReadAll(third)
		if !strings.HasPrefix(string(got), "HTTP/1.1 503 ") {
			t.Errorf("third connection got %q; want 503", got)
		}
		open[0].Close()
		time.Sleep(100 * time.Millisecond)
		resp, err := (&http.Client{Timeout: 3 * time.Second}).Get("http://" + addr + "/")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("after one closed: %d; want 200", resp.StatusCode)
		}
	})
	t.Run("requests", func(t *testing.T) {
		c := newClub(t)
		gate, entered := make(chan struct{}), make(chan struct{}, 4)
		srv := web.New(slowSource{c.svc, entered, gate}, web.Options{Workers: 4, Wait: time.Second, ClientRequests: 1})
		addr := serveLimited(t, srv, 8)
		first := make(chan int)
		go func() {
			resp, err := http.Get("http://" + addr + "/")
			if err != nil {
				first <- 0
				return
			}
			resp.Body.Close()
			first <- resp.StatusCode
		}()
		<-entered // the first request is being drawn
		resp, err := http.Get("http://" + addr + "/")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
			t.Errorf("second request at once: %d, Retry-After %q; want 429 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
		}
		close(gate)
		if code := <-first; code != http.StatusOK {
			t.Errorf("first request: %d", code)
		}
	})
}
