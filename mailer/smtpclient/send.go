package smtpclient

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/emersion/go-smtp"
)

// Mail is one mail to submit: the envelope and the text.
type Mail struct {
	From string
	To   []string
	Data []byte
}

// Send submits one mail; the server accepted it when err is nil. A
// refusal by the server is an *smtp.SMTPError in the chain; any other error
// means the connection is broken.
func (c *Conn) Send(from string, to []string, data []byte) error {
	var res error
	if err := c.SendAll([]Mail{{From: from, To: to, Data: data}}, func(_ int, err error) error { res = err; return nil }); err != nil {
		return err
	}
	return res
}

// SendAll submits the mails in order, one after another, and calls done
// once for each mail the server answered, in order: nil when it accepted
// the mail, its refusal (an *smtp.SMTPError in the chain) when it did not —
// a mail that cannot be sent at all (an address with CR, LF or angle
// brackets; a non-ASCII one without SMTPUTF8) comes as a 553 refusal too,
// without a word to the server. A transaction a refusal left open is
// reset (RSET) before the next mail, in this call or a later one. Each
// mail's answers are read before the next mail is written.
//
// When done returns an error, SendAll stops there and returns it (the
// session stays usable: no answer is owed). When the connection breaks it
// stops and returns that error: the mail under way, whose answer never
// came, may have been accepted (at least once: one mail); the mails after
// it were not sent.
func (c *Conn) SendAll(mails []Mail, done func(i int, err error) error) error {
	for i, m := range mails {
		if c.broken != nil {
			return c.broken
		}
		refusal, err := c.send(m)
		if err != nil {
			return err
		}
		if err := done(i, refusal); err != nil {
			return err
		}
	}
	return nil
}

// step is one command of a mail's transaction and the reply it wants.
type step struct {
	kind   string // "RSET", "MAIL", "RCPT", "DATA" or "BDAT"
	line   string
	expect int    // see codeMatches
	chunk  []byte // BDAT's text, written right after its line
}

// send submits one mail: refusal is the server's (or the client's 553)
// refusal of it, nil when the server accepted it; err is set when the
// session broke. On a server that offers PIPELINING the envelope (RSET if
// one is owed, MAIL, a RCPT for each recipient) goes out in one write with
// DATA, or with "BDAT n LAST" and the text (Config.Chunking, where the
// server offers CHUNKING); without it, one command at a time.
func (c *Conn) send(m Mail) (refusal, err error) {
	mailCmd, refusal := mailCommand(m, c.ext)
	if refusal != nil {
		return refusal, nil
	}
	_, pipe := c.ext["PIPELINING"]
	_, chunking := c.ext["CHUNKING"]
	bdat := pipe && chunking && c.chunking
	var steps []step
	if c.rset {
		steps = append(steps, step{kind: "RSET", line: "RSET", expect: 250})
	}
	steps = append(steps, step{kind: "MAIL", line: mailCmd, expect: 250})
	for _, to := range m.To { // RCPT takes 250 and 251 (will forward)
		steps = append(steps, step{kind: "RCPT", line: "RCPT TO:<" + to + ">", expect: 25})
	}
	if bdat {
		text := crlfText(m.Data) // SMTP's text has CRLF line ends; BDAT sends it as it is
		steps = append(steps, step{kind: "BDAT", line: fmt.Sprintf("BDAT %d LAST", len(text)), expect: 250, chunk: text})
	} else {
		steps = append(steps, step{kind: "DATA", line: "DATA", expect: 354})
	}
	env, err := c.exchange(steps, pipe)
	if err != nil {
		return nil, err
	}
	if r := cmp.Or(env.refused(), env.lastErr); r != nil {
		c.rset = env.mailOK // a transaction was opened: reset it before the next mail
		return fmt.Errorf("smtpclient: send: %w", r), nil
	}
	if bdat {
		return nil, nil // BDAT's answer was the text's
	}
	if err := writeText(c.w, m.Data, true); err != nil {
		c.broken = err
		return nil, err
	}
	if err := c.flush(); err != nil {
		return nil, err
	}
	// The text's answer: the server may check it at length.
	if _, _, err := c.reply(250, 2*c.timeout); err != nil {
		if c.broken != nil {
			return nil, err
		}
		return fmt.Errorf("smtpclient: send: %w", err), nil
	}
	return nil, nil
}

// exchange sends a mail's steps and reads their replies into an envelope:
// all in one write with PIPELINING (RFC 2920 §3.1), else one at a time,
// stopping where the mail is refused (no RCPT after a refused MAIL, no
// DATA or BDAT when no recipient was taken). err is set when the session
// broke.
func (c *Conn) exchange(steps []step, pipe bool) (env envelope, err error) {
	for k := 0; k < len(steps); {
		group := steps[k : k+1]
		if pipe {
			group = steps[k:]
		}
		for _, s := range group {
			c.w.WriteString(s.line + "\r\n")
			c.w.Write(s.chunk)
		}
		if err := c.flush(); err != nil {
			return env, err
		}
		for _, s := range group {
			if err := c.answer(s, &env); err != nil {
				return env, err
			}
		}
		k += len(group)
		if k < len(steps) && (env.mailErr != nil || k == len(steps)-1 && env.refused() != nil) {
			break // one command at a time: no more for a mail the server refused
		}
	}
	return env, nil
}

// answer reads the reply to one step into env. A refused RSET, and a text
// asked for or taken although the envelope was refused (the transaction
// cannot be ended cleanly, and what the server did with it is unknown),
// break the session.
func (c *Conn) answer(s step, env *envelope) error {
	wait := c.timeout
	if s.kind == "BDAT" {
		wait = 2 * c.timeout // the text's answer: the server may check it at length
	}
	_, _, err := c.reply(s.expect, wait)
	if c.broken != nil {
		return c.broken
	}
	switch {
	case s.kind == "RSET" && err != nil:
		c.broken = fmt.Errorf("smtpclient: RSET refused: %w", err)
		return c.broken
	case s.kind == "RSET":
		c.rset = false
	case s.kind == "MAIL" || s.kind == "RCPT":
		env.take(s.kind, err)
	case err == nil && env.refused() != nil:
		verb := map[string]string{"DATA": "asked for", "BDAT": "took"}[s.kind]
		c.broken = fmt.Errorf("smtpclient: the server %s the text of a refused mail: %w", verb, env.refused())
		c.conn.Close()
		return c.broken
	default:
		env.lastErr = err
	}
	return nil
}

// envelope is what the server said of a mail's MAIL and RCPT commands,
// and of its DATA or BDAT (lastErr). The mail goes to the recipients the
// server took; those it refused while it took others are dropped (the
// service sends each mail to one recipient), so a text the server
// accepted is never sent again for them.
type envelope struct {
	mailOK  bool
	mailErr error // MAIL refused
	rcptErr error // the first RCPT refused
	rcpts   int   // RCPTs taken
	lastErr error // DATA or BDAT refused
}

// take records the answer to a MAIL or RCPT command.
func (e *envelope) take(kind string, err error) {
	switch {
	case kind == "MAIL" && err != nil:
		e.mailErr = err
	case kind == "MAIL":
		e.mailOK = true
	case err != nil:
		e.rcptErr = cmp.Or(e.rcptErr, err)
	default:
		e.rcpts++
	}
}

// refused is why no text may follow: MAIL refused, or every RCPT.
func (e *envelope) refused() error {
	switch {
	case e.mailErr != nil:
		return e.mailErr
	case e.rcpts == 0:
		return cmp.Or(e.rcptErr, errors.New("no recipient taken"))
	}
	return nil
}

// mailCommand is the MAIL FROM command for m, with SMTPUTF8 where an
// address needs it (and the server offers it); a mail that cannot be sent
// gets a 553 refusal instead.
func mailCommand(m Mail, ext map[string]string) (string, error) {
	for _, a := range append([]string{m.From}, m.To...) {
		if strings.ContainsAny(a, "\r\n<>") {
			return "", &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 1, 3}, Message: fmt.Sprintf("the address %q cannot be sent", a)}
		}
	}
	line := "MAIL FROM:<" + m.From + ">"
	if !isASCII(m.From) || !allASCII(m.To) {
		if _, ok := ext["SMTPUTF8"]; !ok {
			return "", &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 6, 7}, Message: "the server does not offer SMTPUTF8, needed for a non-ASCII address"}
		}
		line += " SMTPUTF8"
	}
	return line, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func allASCII(list []string) bool {
	for _, s := range list {
		if !isASCII(s) {
			return false
		}
	}
	return true
}

// crlfText is a mail's text with every line end CRLF, as BDAT sends it:
// the text itself where it has no bare LF.
func crlfText(data []byte) []byte {
	if bytes.Count(data, []byte("\n")) == bytes.Count(data, []byte("\r\n")) {
		return data
	}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	writeText(w, data, false)
	w.Flush()
	return b.Bytes()
}

// writeText writes a mail's text with every line ended by CRLF (a bare LF
// becomes CRLF; a CR directly before a line's CRLF stays one CR). For DATA
// (dot, RFC 5321 §4.5.2) a line that begins with a dot gets another, the
// last line is ended if it was not, and the text ends with the line ".";
// that is what net/textproto's DotWriter writes, whole lines at a time
// rather than byte by byte (FuzzDotStuffed checks it, and the round trip
// through textproto's DotReader). Without dot an unended last line stays
// so.
func writeText(w *bufio.Writer, data []byte, dot bool) error {
	if dot && len(data) == 0 {
		_, err := w.WriteString("\r\n.\r\n")
		return err
	}
	for len(data) > 0 {
		if dot && data[0] == '.' { // at the beginning of a line
			w.WriteByte('.')
		}
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			i = len(data) // the last line, unended
		}
		line := data[:i]
		if n := len(line); n > 0 && line[n-1] == '\r' && (i < len(data) || dot) {
			line = line[:n-1]
		}
		w.Write(line)
		if i < len(data) || dot {
			w.WriteString("\r\n")
		}
		data = data[min(i+1, len(data)):]
	}
	if !dot {
		return nil
	}
	_, err := w.WriteString(".\r\n")
	return err
}
