package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestReloadKeepsThePortsOpen checks issue 35.6: a reload (SIGHUP) never
// leaves the hub's or the web view's ports free. While serve reloads, a
// client connects to each port in a loop and must never be refused, and
// another program tries to bind each port in a loop and must never manage
// it. A reload that moves the web view binds the new address and frees
// the old one.
func TestReloadKeepsThePortsOpen(t *testing.T) {
	dir := t.TempDir()
	imapAddr, smtpAddr, webAddr, webAddr2 := freeAddr(t), freeAddr(t), freeAddr(t), freeAddr(t)
	cfgPath := filepath.Join(dir, "bp.toml")
	config := func(level, web string) {
		os.WriteFile(cfgPath, []byte(fmt.Sprintf("[service]\nlog_level = %q\ndata_dir = %q\n[hub]\nimap_listen = %q\nsmtp_listen = %q\n[web]\nlisten = %q\n",
			level, filepath.Join(dir, "data"), imapAddr, smtpAddr, web)), 0o600)
	}
	config("info", webAddr)
	stop, reload, done, out, errb := startServe(t, cfgPath)
	waitFor := func(want string, n int) {
		t.Helper()
		for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
			if strings.Count(out.String(), want) >= n {
				return
			}
		}
		t.Fatalf("no %q (%d) after 15s:\n%s\n%s", want, n, out.String(), errb.String())
	}
	waitFor("Point any mail client at it", 1)

	var refused, taken atomic.Int64
	var firstErr atomic.Value
	quit := make(chan struct{})
	var wg sync.WaitGroup
	for _, addr := range []string{imapAddr, smtpAddr, webAddr} {
		wg.Go(func() { // a client
			for {
				select {
				case <-quit:
					return
				default:
				}
				c, err := net.DialTimeout("tcp", addr, 2*time.Second)
				if err != nil {
					if errors.Is(err, syscall.ECONNREFUSED) {
						refused.Add(1)
						firstErr.CompareAndSwap(nil, err.Error())
					}
					continue
				}
				c.Close()
				time.Sleep(time.Millisecond)
			}
		})
		wg.Go(func() { // another program after the port
			for {
				select {
				case <-quit:
					return
				default:
				}
				if ln, err := net.Listen("tcp", addr); err == nil {
					ln.Close()
					taken.Add(1)
					firstErr.CompareAndSwap(nil, "bound "+addr)
				}
				time.Sleep(100 * time.Microsecond)
			}
		})
	}
	for i := range 3 {
		config([]string{"debug", "info"}[i%2], webAddr)
		reload <- syscall.SIGHUP
		waitFor("Point any mail client at it", 2+i)
	}
	close(quit)
	wg.Wait()
	if refused.Load() > 0 || taken.Load() > 0 {
		t.Errorf("during 3 reloads: %d connections refused, the ports bound by another %d times (first: %v)", refused.Load(), taken.Load(), firstErr.Load())
	}

	// Moving the web view binds the new address and frees the old one.
	config("info", webAddr2)
	reload <- syscall.SIGHUP
	waitFor("Point any mail client at it", 5)
	if resp, err := http.Get("http://" + webAddr2 + "/"); err != nil {
		t.Errorf("the web view's new address: %v", err)
	} else if resp.Body.Close(); resp.StatusCode != http.StatusOK {
		t.Errorf("the web view's new address: %s", resp.Status)
	}
	if ln, err := net.Listen("tcp", webAddr); err != nil {
		t.Errorf("the web view's old address is still held: %v", err)
	} else {
		ln.Close()
	}

	stop <- syscall.SIGTERM
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d:\n%s", code, errb.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop within 15s of SIGTERM")
	}
	// Once serve has stopped, its ports are free.
	for _, addr := range []string{imapAddr, smtpAddr, webAddr2} {
		if ln, err := net.Listen("tcp", addr); err != nil {
			t.Errorf("%s still held after serve stopped: %v", addr, err)
		} else {
			ln.Close()
		}
	}
}
