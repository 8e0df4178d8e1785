package mailfmt

import (
	"fmt"
	"net/mail"
	"strconv"
	"strings"
)

// Noise says why a message must never be answered; NotNoise means it may
// be.
type Noise int

// The kinds of noise, in the order Classify checks them.
const (
	NotNoise      Noise = iota
	Loop                // sent from one of our own addresses
	Bounce              // a delivery status notification or other report
	AutoSubmitted       // an auto-reply or other automatic message
	MailingList         // carries mailing list fields
	Bulk                // Precedence: bulk, list or junk
)

var noiseNames = [...]string{
	NotNoise:      "none",
	Loop:          "loop",
	Bounce:        "bounce",
	AutoSubmitted: "auto-submitted",
	MailingList:   "mailing-list",
	Bulk:          "bulk",
}

// String returns the noise kind's name, as in the corpus's .want files.
func (n Noise) String() string {
	if n >= 0 && int(n) < len(noiseNames) {
		return noiseNames[n]
	}
	return fmt.Sprintf("Noise(%d)", int(n))
}

// Classify reports whether m must never be answered, and why, with a reason
// naming the field that decided. ourAddresses are the service's own
// addresses ("games@bottlepost.example"); their +TOKEN forms count as ours.
// The rules follow RFC 3834 section 2 (responders must not answer
// automatic mail, bounces or lists):
//
//   - Loop: From, Sender or Return-Path is one of ours, or an X-Loop field
//     names one of ours.
//   - Bounce: a null Return-Path ("<>"), a multipart/report (delivery status
//     notification or read receipt), an X-Failed-Recipients field, or a
//     sender whose local part is MAILER-DAEMON or postmaster.
//   - AutoSubmitted: Auto-Submitted other than "no" (RFC 3834 section 5),
//     or the older X-Autoreply / X-Autorespond fields, or a subject that
//     starts as automatic replies' do ("Out of office", "Automatic reply",
//     "Auto:", and their translations: autoReplySubjects).
//   - MailingList: List-Id (RFC 2919) or List-Unsubscribe (RFC 2369).
//   - Bulk: Precedence bulk, list, junk or auto_reply.
func Classify(m *Message, ourAddresses []string) (Noise, string) {
	if r := ourAddress(m, ourAddresses); r != "" {
		return Loop, "loop: " + r
	}
	if r := bounce(m); r != "" {
		return Bounce, "bounce: " + r
	}
	if v := firstToken(m.AutoSubmitted); v != "" && v != "no" {
		return AutoSubmitted, "auto-submitted: Auto-Submitted: " + clip(m.AutoSubmitted, 60)
	}
	for _, f := range []string{"X-Autoreply", "X-Autorespond"} {
		if m.Header.Has(f) {
			return AutoSubmitted, "auto-submitted: " + f + " field"
		}
	}
	if p := autoReplySubject(m.Subject); p != "" {
		return AutoSubmitted, "auto-submitted: the subject starts with " + strconv.Quote(p)
	}
	if m.ListID != "" {
		return MailingList, "mailing list: List-Id: " + clip(m.ListID, 80)
	}
	if m.ListUnsubscribe {
		return MailingList, "mailing list: List-Unsubscribe field"
	}
	switch p := firstToken(m.Precedence); p {
	case "bulk", "list", "junk", "auto_reply":
		return Bulk, "bulk: Precedence: " + p
	}
	return NotNoise, ""
}

// ourAddress describes how m comes from one of ours, or returns "".
func ourAddress(m *Message, ours []string) string {
	isOurs := func(addr string) bool {
		for _, o := range ours {
			if SameAddress(addr, o) {
				return true
			}
			if _, ok := PlusToken(addr, o); ok {
				return true
			}
		}
		return false
	}
	if m.From != nil && isOurs(m.From.Address) {
		return "from our own address " + m.From.Address
	}
	if m.Sender != nil && isOurs(m.Sender.Address) {
		return "sender is our own address " + m.Sender.Address
	}
	if !m.NullReturnPath && m.ReturnPath != "" && isOurs(m.ReturnPath) {
		return "return path is our own address " + m.ReturnPath
	}
	for _, v := range m.Header.Values("X-Loop") {
		for _, a := range lenientAddressList(v) {
			if isOurs(a.Address) {
				return "X-Loop names our own address " + a.Address
			}
		}
	}
	return ""
}

// bounce describes how m is a bounce or report, or returns "".
func bounce(m *Message) string {
	if m.NullReturnPath {
		return "null return path"
	}
	if m.ContentType == "multipart/report" {
		if m.ReportType != "" {
			return "multipart/report (" + clip(m.ReportType, 40) + ")"
		}
		return "multipart/report"
	}
	if m.Header.Has("X-Failed-Recipients") {
		return "X-Failed-Recipients field"
	}
	for _, a := range []string{addressOf(m.From), addressOf(m.Sender)} {
		at := strings.LastIndexByte(a, '@')
		if at < 0 {
			continue
		}
		switch strings.ToLower(a[:at]) {
		case "mailer-daemon", "postmaster":
			return "sender " + a
		}
	}
	return ""
}

// firstToken returns the first word of a field value, lower-cased, without
// parameters or comments: "auto-replied" from "Auto-Replied (vacation)".
func firstToken(v string) string {
	v = strings.TrimSpace(v)
	if i := strings.IndexAny(v, ";( \t"); i >= 0 {
		v = v[:i]
	}
	return strings.ToLower(v)
}

// addressOf returns a's address, or "" for nil.
func addressOf(a *mail.Address) string {
	if a == nil {
		return ""
	}
	return a.Address
}
