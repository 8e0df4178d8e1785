package smtpclient

import (
	"bytes"
	"io"
	"log"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// refusingSMTP is go-smtp's server (it offers PIPELINING and CHUNKING)
// with a backend that refuses the sender refused@example.org (550), the
// recipient nobody@example.org (550) and a text that says "refuse this
// text" (451), and accepts everything else.
type refusingSMTP struct {
	addr string

	mu       sync.Mutex
	accepted []string // subjects of the accepted mails, in order
}

var (
	errTemporary = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	errPermanent = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
)

func startRefusingSMTP(t *testing.T) *refusingSMTP {
	t.Helper()
	rs := &refusingSMTP{}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return refusingSession{rs}, nil }))
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.ErrorLog = log.New(io.Discard, "", 0)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rs.addr = ln.Addr().String()
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close(); ln.Close(); <-done })
	return rs
}

func (rs *refusingSMTP) taken() []string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return append([]string(nil), rs.accepted...)
}

type refusingSession struct{ rs *refusingSMTP }

func (s refusingSession) Mail(from string, _ *smtp.MailOptions) error {
	if from == "refused@example.org" {
		return errPermanent
	}
	return nil
}

func (s refusingSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if to == "nobody@example.org" {
		return errPermanent
	}
	return nil
}

func (s refusingSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if bytes.Contains(b, []byte("refuse this text")) {
		return errTemporary
	}
	subject, _, _ := strings.Cut(string(b), "\r\n")
	s.rs.mu.Lock()
	s.rs.accepted = append(s.rs.accepted, strings.TrimPrefix(subject, "Subject: "))
	s.rs.mu.Unlock()
	return nil
}

func (s refusingSession) Reset()        {}
func (s refusingSession) Logout() error { return nil }
