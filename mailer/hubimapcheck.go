package mailer

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"net"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// hubIMAPListener hands out the embedded hub's IMAP connections, each
// wrapped in a hubIMAPConn. It exists only to work around go-imap
// v2.0.0-beta.8: its server answers some malformed commands
// "NO [SERVERBUG] Internal server error" instead of BAD, because a few
// argument checks return plain errors rather than the decoder's syntax
// error (imapserver/conn.go turns only *imap.Error and
// *imapwire.DecoderExpectError into BAD):
//
//   - a number set imapnum.ParseSet refuses ("FETCH 1:x (FLAGS)", "FETCH 0
//     (FLAGS)", STORE, COPY, MOVE, UID EXPUNGE and their UID forms);
//   - a mailbox name utf7.Decode refuses ("SELECT &Jjo", and so CREATE,
//     DELETE, RENAME, SUBSCRIBE, UNSUBSCRIBE, STATUS, LIST/LSUB's reference,
//     COPY and MOVE's destination, and APPEND's mailbox, which comes
//     before its literal: checkAppendLine);
//   - a search key that is neither a known key nor a number set ("SEARCH
//     FOO"), a search date time.Parse refuses ("SEARCH SINCE 99-Foo-2020"),
//     a UID search key's number set.
//
// The wrapper reads the client's stream command by command before go-imap
// does and, for a one-line command (or an APPEND's first line) whose
// arguments would meet one of those checks, replaces the offending argument with "%", a byte go-imap's
// decoder refuses wherever such an argument may stand (not an atom,
// astring or number set character, nor "(", ")", a quote or a literal:
// ")" would close a search key list opened just before), keeping the tag and command: go-imap then
// answers "TAG BAD [CLIENTBUG] Syntax error: …" itself, so go-imap stays the
// only writer on the connection. Everything else passes through byte for
// byte: literals ({N}, {N+}, ~{N} at a line's end) pass unread and the
// command's lines after one are not inspected, so APPEND's message text is
// never looked at. After STARTTLS the stream passes through untouched, and a
// line longer than the 16 KiB read buffer passes unchecked (go-imap answers
// it as before).
//
// The wrapper can go once go-imap answers these with BAD itself: upstream
// PR emersion/go-imap#765 fixes it; drop hubIMAPListener when a release
// with it is pinned and the hub's TestHubIMAPSyntaxErrors stays green.
type hubIMAPListener struct {
	net.Listener
	// accepting, when set, is called at each Accept: Hub.Start waits for
	// the first, after which go-imap's Serve has counted itself in (its
	// Close is safe from then on; see Hub.Start).
	accepting func()
}

func (l *hubIMAPListener) Accept() (net.Conn, error) {
	if l.accepting != nil {
		l.accepting()
	}
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &hubIMAPConn{Conn: c, r: bufio.NewReaderSize(c, 16<<10)}, nil
}

// hubIMAPConn is one client connection of the hub's IMAP server whose read
// side is checked command by command (see hubIMAPListener). Only go-imap's
// one serving goroutine reads it.
type hubIMAPConn struct {
	net.Conn
	r       *bufio.Reader
	out     []byte // checked bytes not yet handed to the reader
	literal int64  // bytes of a literal still to pass unread
	inCmd   bool   // the next line continues a command after a literal
	midLine bool   // the current line is longer than the buffer: pass it
	tail    []byte // the last bytes of such a long line, for its literal
	raw     bool   // after STARTTLS: pass everything
}

func (c *hubIMAPConn) Read(p []byte) (int, error) {
	if len(c.out) == 0 {
		if err := c.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	return n, nil
}

// fill reads the next piece of the stream into c.out: a literal's bytes, or
// one line, checked when it is a whole command.
func (c *hubIMAPConn) fill() error {
	if c.raw {
		buf := make([]byte, 4<<10)
		n, err := c.r.Read(buf)
		c.out = buf[:n]
		if n > 0 {
			return nil
		}
		return err
	}
	if c.literal > 0 {
		buf := make([]byte, min(c.literal, 16<<10))
		n, err := c.r.Read(buf)
		c.literal -= int64(n)
		c.out = buf[:n]
		if n > 0 {
			return nil
		}
		return err
	}
	line, err := c.r.ReadSlice('\n')
	if len(line) == 0 {
		return err
	}
	line = bytes.Clone(line)
	if err != nil || line[len(line)-1] != '\n' {
		// A line longer than the buffer (or cut by an error): pass it on,
		// remembering its end to find a literal announced there.
		c.midLine = true
		c.tail = append(c.tail, line...)
		if len(c.tail) > 32 {
			c.tail = c.tail[len(c.tail)-32:]
		}
		c.out = line
		return nil
	}
	whole, end := line, line
	if c.midLine {
		end = append(c.tail, line...)
		whole = nil
		c.midLine, c.tail = false, nil
	}
	n, lit := lineLiteral(end)
	switch {
	case whole != nil && !c.inCmd && !lit:
		whole = checkIMAPLine(whole)
		if isSTARTTLS(whole) {
			c.raw = true
		}
	case whole != nil && !c.inCmd:
		// The first line of a command with a literal: only APPEND's
		// mailbox, which comes before the literal, is checked; the
		// literal's marker stays where it is.
		whole = checkAppendLine(whole)
	}
	c.inCmd, c.literal = lit, n
	c.out = whole
	if whole == nil {
		c.out = line
	}
	return nil
}

// lineLiteral reports whether line (ending in LF) ends with a literal's
// announcement, {N}, {N+} or ~{N}, and N.
func lineLiteral(line []byte) (int64, bool) {
	s := bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
	if !bytes.HasSuffix(s, []byte("}")) {
		return 0, false
	}
	open := bytes.LastIndexByte(s, '{')
	if open < 0 {
		return 0, false
	}
	digits := bytes.TrimSuffix(s[open+1:len(s)-1], []byte("+"))
	n, err := strconv.ParseInt(string(digits), 10, 64)
	if err != nil || n < 0 || len(digits) == 0 || digits[0] == '+' {
		return 0, false
	}
	return n, true
}

// isSTARTTLS reports whether line is a STARTTLS command.
func isSTARTTLS(line []byte) bool {
	f := strings.Fields(string(line))
	return len(f) == 2 && strings.EqualFold(f[1], "STARTTLS")
}

// checkIMAPLine returns line, a whole one-line command ending in LF, as it
// is, or, when go-imap v2.0.0-beta.8 would answer it SERVERBUG, the line
// with the offending argument replaced by "%" so that go-imap answers BAD
// (see hubIMAPListener). It mirrors go-imap's grammar only as far as it
// reaches those checks and leaves anything else to go-imap.
func checkIMAPLine(line []byte) []byte {
	p := &cmdParser{s: line, bad: -1}
	p.command()
	return p.rewritten()
}

// rewritten is the parser's line as it is, or with the argument it refused
// (bad to badEnd) replaced by "%".
func (p *cmdParser) rewritten() []byte {
	if p.bad < 0 {
		return p.s
	}
	out := make([]byte, 0, len(p.s))
	out = append(out, p.s[:p.bad]...)
	out = append(out, '%')
	return append(out, p.s[p.badEnd:]...)
}

// checkAppendLine is checkIMAPLine for the first line of an APPEND, which
// ends in its message's literal: the mailbox name is checked as go-imap
// reads it (APPEND &Jjo (\Seen) {5} is answered BAD, not SERVERBUG);
// any other command's line is returned as it is.
func checkAppendLine(line []byte) []byte {
	p := &cmdParser{s: line, bad: -1}
	if _, ok := p.run(isAtomChar); !ok || !p.sp() {
		return line
	}
	if name, ok := p.run(isAtomChar); !ok || !strings.EqualFold(name, "APPEND") || !p.sp() {
		return line
	}
	p.mailbox()
	return p.rewritten()
}

// cmdParser walks one command line as go-imap's decoder does. A method
// returns false when go-imap would stop there (its own syntax error, or a
// refused argument, then recorded in bad and badEnd).
type cmdParser struct {
	s           []byte
	i           int
	bad, badEnd int
	depth       int
}

func (p *cmdParser) peek() (byte, bool) {
	if p.i < len(p.s) {
		return p.s[p.i], true
	}
	return 0, false
}

func (p *cmdParser) special(b byte) bool {
	if c, ok := p.peek(); ok && c == b {
		p.i++
		return true
	}
	return false
}

// sp mirrors imapwire's Decoder.SP: a space not followed by a line end, or
// nothing before "(".
func (p *cmdParser) sp() bool {
	if p.special(' ') {
		c, ok := p.peek()
		return ok && c != '\r' && c != '\n'
	}
	c, ok := p.peek()
	return ok && c == '('
}

func (p *cmdParser) run(valid func(byte) bool) (string, bool) {
	start := p.i
	for p.i < len(p.s) && valid(p.s[p.i]) {
		p.i++
	}
	if p.i == len(p.s) { // go-imap's read fails at the stream's end
		return "", false
	}
	return string(p.s[start:p.i]), p.i > start
}

func (p *cmdParser) refuse(start int) bool {
	p.bad, p.badEnd = start, p.i
	return false
}

func isAtomChar(ch byte) bool {
	switch ch {
	case '(', ')', '{', ' ', '%', '*', '"', '\\', ']':
		return false
	}
	return !unicode.IsControl(rune(ch))
}

// isStarAtomChar is a character of a sequence set or of a SEARCH key's
// atom: an atom's, or '*'.
func isStarAtomChar(ch byte) bool { return ch == '*' || isAtomChar(ch) }
func isAStringChar(ch byte) bool  { return isAtomChar(ch) || ch == ']' }

func (p *cmdParser) command() {
	if _, ok := p.run(isAtomChar); !ok || !p.sp() {
		return
	}
	name, ok := p.run(isAtomChar)
	if !ok {
		return
	}
	name = strings.ToUpper(name)
	if name == "UID" {
		sub, ok := "", p.sp()
		if ok {
			sub, ok = p.run(isAtomChar)
		}
		if !ok {
			return
		}
		name += " " + strings.ToUpper(sub)
	}
	if !p.sp() {
		return
	}
	switch name {
	case "FETCH", "UID FETCH", "STORE", "UID STORE", "UID EXPUNGE":
		p.numSet()
	case "COPY", "UID COPY", "MOVE", "UID MOVE":
		_ = p.numSet() && p.sp() && p.mailbox()
	case "SELECT", "EXAMINE", "CREATE", "DELETE", "SUBSCRIBE", "UNSUBSCRIBE", "STATUS", "LIST", "LSUB":
		p.mailbox()
	case "RENAME":
		_ = p.mailbox() && p.sp() && p.mailbox()
	case "SEARCH", "UID SEARCH":
		p.search()
	}
}

// numSet mirrors Decoder.ExpectNumSet.
func (p *cmdParser) numSet() bool {
	if p.special('$') {
		return true
	}
	start := p.i
	s, ok := p.run(isStarAtomChar)
	if !ok {
		return false
	}
	if !validNumSet(s) {
		return p.refuse(start)
	}
	return true
}

// validNumSet reports whether imapnum.ParseSet accepts s.
func validNumSet(s string) bool {
	for _, r := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(r, ":")
		if !validSeqNum(lo) || isRange && !validSeqNum(hi) {
			return false
		}
	}
	return true
}

func validSeqNum(v string) bool {
	if v == "*" {
		return true
	}
	_, err := strconv.ParseUint(v, 10, 32)
	return err == nil && v[0] != '0'
}

// astring mirrors Decoder.ExpectAString for a line without literals.
func (p *cmdParser) astring() (string, bool) {
	if p.special('"') {
		var sb strings.Builder
		for p.i < len(p.s) {
			ch := p.s[p.i]
			p.i++
			switch ch {
			case '"':
				return sb.String(), true
			case '\\':
				if p.i == len(p.s) {
					return "", false
				}
				ch = p.s[p.i]
				p.i++
			}
			sb.WriteByte(ch)
		}
		return "", false
	}
	return p.run(isAStringChar)
}

// mailbox mirrors Decoder.ExpectMailbox.
func (p *cmdParser) mailbox() bool {
	start := p.i
	name, ok := p.astring()
	if !ok {
		return false
	}
	if !strings.EqualFold(name, "INBOX") && !validUTF7(name) {
		return p.refuse(start)
	}
	return true
}

var mUTF7 = base64.NewEncoding("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+,")

// validUTF7 reports whether go-imap's utf7.Decode accepts s as a modified
// UTF-7 mailbox name (RFC 3501 section 5.1.3; raw UTF-8 is accepted too).
func validUTF7(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	afterShift := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch < 0x20 || ch > 0x7e && ch < utf8.RuneSelf {
			return false
		}
		if ch != '&' {
			afterShift = false
			continue
		}
		end := strings.IndexByte(s[i+1:], '-')
		if end < 0 {
			return false
		}
		b64 := s[i+1 : i+1+end]
		i += 1 + end
		if b64 == "" {
			afterShift = false
			continue
		}
		if afterShift || strings.ContainsAny(b64, "\r\n") || !validUTF16B64(b64) {
			return false
		}
		afterShift = true
	}
	return true
}

// validUTF16B64 reports whether b64, unpadded modified base64, holds
// UTF-16BE text of characters that need the encoding.
func validUTF16B64(b64 string) bool {
	if b64[len(b64)-1] == '=' {
		return false
	}
	switch len(b64) % 4 {
	case 1: // no base64 ends in one character
		return false
	case 2:
		b64 += "=="
	case 3:
		b64 += "="
	}
	b, err := mUTF7.DecodeString(b64)
	if err != nil || len(b)%2 == 1 {
		return false
	}
	for i := 0; i < len(b); i += 2 {
		r := rune(b[i])<<8 | rune(b[i+1])
		if utf16.IsSurrogate(r) {
			if i += 2; i == len(b) {
				return false
			}
			if utf16.DecodeRune(r, rune(b[i])<<8|rune(b[i+1])) == utf8.RuneError {
				return false
			}
		} else if r >= 0x20 && r <= 0x7e {
			return false
		}
	}
	return true
}

// search mirrors imapserver's handleSearch up to its search keys.
func (p *cmdParser) search() {
	start := p.i
	atom, _ := p.run(isStarAtomChar)
	if strings.EqualFold(atom, "RETURN") {
		if !p.returnOpts() || !p.sp() {
			return
		}
		start = p.i
		atom, _ = p.run(isStarAtomChar)
	}
	if strings.EqualFold(atom, "CHARSET") {
		charset, ok := "", p.sp()
		if ok {
			charset, ok = p.astring()
		}
		if !ok || !p.sp() {
			return
		}
		switch strings.ToUpper(charset) {
		case "US-ASCII", "UTF-8":
		default:
			return
		}
		start = p.i
		atom, _ = p.run(isStarAtomChar)
	}
	for {
		ok := false
		if atom != "" {
			ok = p.keyWithAtom(atom, start)
			atom = ""
		} else {
			ok = p.key()
		}
		if !ok || !p.sp() {
			return
		}
	}
}

// returnOpts mirrors readSearchReturnOpts.
func (p *cmdParser) returnOpts() bool {
	if !p.sp() || !p.special('(') {
		return false
	}
	if p.special(')') {
		return true
	}
	for {
		name, ok := p.run(isAtomChar)
		if !ok {
			return false
		}
		switch strings.ToUpper(name) {
		case "MIN", "MAX", "ALL", "COUNT", "SAVE":
		default:
			return false
		}
		if p.special(')') {
			return true
		}
		if !p.sp() {
			return false
		}
	}
}

// key mirrors readSearchKey.
func (p *cmdParser) key() bool {
	start := p.i
	if atom, ok := p.run(isStarAtomChar); ok {
		return p.keyWithAtom(atom, start)
	}
	p.i = start
	if !p.special('(') {
		return false
	}
	if p.special(')') {
		return true
	}
	if p.depth++; p.depth >= 1000 { // imapwire's maxListDepth: a plain error
		p.i = start + 1
		return p.refuse(start)
	}
	defer func() { p.depth-- }()
	for {
		if !p.key() {
			return false
		}
		if p.special(')') {
			return true
		}
		if !p.sp() {
			return false
		}
	}
}

// keyWithAtom mirrors readSearchKeyWithAtom; the atom began at start.
func (p *cmdParser) keyWithAtom(atom string, start int) bool {
	switch strings.ToUpper(atom) {
	case "ALL", "ANSWERED", "DELETED", "DRAFT", "FLAGGED", "RECENT", "SEEN",
		"UNANSWERED", "UNDELETED", "UNDRAFT", "UNFLAGGED", "UNSEEN", "NEW", "OLD", "$":
		return true
	case "UID":
		return p.sp() && p.numSet()
	case "KEYWORD", "UNKEYWORD":
		if !p.sp() {
			return false
		}
		if p.special('\\') && p.special('*') {
			return true
		}
		_, ok := p.run(isAtomChar)
		return ok
	case "BCC", "CC", "FROM", "SUBJECT", "TO", "BODY", "TEXT":
		if !p.sp() {
			return false
		}
		_, ok := p.astring()
		return ok
	case "HEADER":
		if !p.sp() {
			return false
		}
		if _, ok := p.astring(); !ok || !p.sp() {
			return false
		}
		_, ok := p.astring()
		return ok
	case "SINCE", "BEFORE", "ON", "SENTSINCE", "SENTBEFORE", "SENTON":
		if !p.sp() {
			return false
		}
		dstart := p.i
		s, ok := p.astring()
		if !ok {
			return false
		}
		if _, err := time.Parse("2-Jan-2006", s); err != nil {
			return p.refuse(dstart)
		}
		return true
	case "LARGER", "SMALLER":
		if !p.sp() {
			return false
		}
		s, ok := p.run(func(ch byte) bool { return ch >= '0' && ch <= '9' })
		if !ok {
			return false
		}
		_, err := strconv.ParseInt(s, 10, 64)
		return err == nil
	case "NOT":
		return p.sp() && p.key()
	case "OR":
		return p.sp() && p.key() && p.sp() && p.key()
	}
	if !validNumSet(atom) {
		p.i = start + len(atom)
		return p.refuse(start)
	}
	return true
}
