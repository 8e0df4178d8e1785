package game

import (
	"fmt"
	"html/template"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/htmlboard"
	"github.com/bottlepost/bottlepost/templates"
)

// mailJob is one outgoing mail as the renderer gathered it on the writer:
// the header fields and the attachment (mail, its parts still empty) and
// the template data of its parts (one draft's, or the several drafts of an
// answer). Run makes the mail's bytes from these alone: it is the work the
// renderer defers to the commit (store.Tx.Defer), run beside the other
// mails of the commit's group while the writer waits for them.
//
// Nothing a job holds is written once it is gathered: the lists of its
// template data are its drafts', which are done with; its board (drawing) is
// a view of its own; its attachment is the renderer's copy of the game's
// record, only read; the templates and the board geometry are read-only
// data. So jobs run side by side need no lock (TestHandleConcurrently runs
// them under the race detector).
type mailJob struct {
	mail  mailfmt.Outgoing // From, To, Subject, Reply-To, the thread, Date, the attachment
	parts []mailPart
	game  uint64 // the game the mail is about (store.Mail.Game), 0 for none
}

// mailPart is one draft's part of a mail: its kind (the template's name) and
// what its templates show.
type mailPart struct {
	kind string
	data mailData
}

// newMailJob is the job of a mail to draft d's recipient, with d's thread,
// Reply-To and game, Message-ID id, the game's thread refs and the parts;
// the last part's subject and attachment are the mail's.
func newMailJob(from mail.Address, date time.Time, d *draft, id string, refs []string, parts ...mailPart) *mailJob {
	inReply := d.inReplyTo
	if inReply != "" {
		refs = append(refs[:len(refs):len(refs)], inReply)
	} else if len(refs) > 0 {
		inReply = refs[0]
	}
	last := parts[len(parts)-1].data
	m := &mailJob{parts: parts, mail: mailfmt.Outgoing{From: from, To: d.to, Subject: last.Subject, ReplyTo: d.replyTo,
		MessageID: id, InReplyTo: inReply, References: refs, Date: date}}
	if d.game != nil {
		m.game = d.game.g.ID
		if last.pgn != nil {
			m.mail.Attachments = []mailfmt.Attachment{{Filename: pgnName(m.game), ContentType: PGNType, Data: last.pgn}}
		}
	}
	return m
}

// Run executes the templates of the mail's parts and writes the mail
// (mailfmt.Outgoing). It implements store.Job.
func (m *mailJob) Run() ([]byte, error) {
	o := m.mail
	txt, html, err := m.execute()
	if err != nil {
		return nil, err
	}
	o.Text, o.HTML = wrapText(txt), html
	return o.Bytes()
}

// execute runs the templates of the parts: one draft's as they are, an
// answer's joined (the text parts with a blank line, the HTML parts with a
// rule).
func (m *mailJob) execute() (txt, html string, err error) {
	if len(m.parts) == 1 {
		return execute(m.parts[0].kind, m.parts[0].data)
	}
	var txts, htmls []string
	for _, p := range m.parts {
		t, ht, err := execute(p.kind, p.data)
		if err != nil {
			return "", "", err
		}
		txts, htmls = append(txts, strings.TrimRight(t, "\n")+"\n"), append(htmls, ht)
	}
	return strings.Join(txts, "\n"), strings.Join(htmls, "<hr>\n"), nil
}

// limit is the most the mail may weigh: MaxReplyBytes, and its attachment
// on top, as encoded (base64 in lines of 76, and the part's header).
func (m *mailJob) limit() int {
	n := MaxReplyBytes
	for _, a := range m.mail.Attachments {
		n += (len(a.Data)+2)/3*4*78/76 + 1024
	}
	return n
}

// mailData is what the templates see.
type mailData struct {
	// Lang is the recipient's language, the templates' (templates.Text).
	Lang                                                                                lang.Lang
	Subject, Address, Receipt, Attachment, Board, Turn, Deadline, Personal, VariantHelp string
	From, YourSide, Result, Reason, FirstMover                                          string
	// Hidden says the game's variant has secret moves (what the records
	// reveal at the end, or include for a referee).
	Newcomer, Over, Hidden bool
	// NoHead and NoFoot leave out the HTML head and the footer: for the
	// parts of an answer that joins several drafts (renderer.answerJob).
	NoHead, NoFoot bool
	// BoardHTML is the board as an HTML table (rules/htmlboard), for the HTML part.
	BoardHTML                                                         template.HTML
	Game                                                              *gameInfo
	Notices, Errors, Ignored, Commitments, Variants, Record, Openings []string
	Moves                                                             string
	Held                                                              []string
	Games, Report                                                     []string
	// Ratings are the lines about the game's ratings (whether it is rated,
	// with both players' ratings; how the end changed them); Tables the
	// pools the ratings command lists.
	Ratings []string
	Tables  []ratingTable
	// Standing is the standings line ending a tournament game's mail to a
	// player (tournament.go).
	Standing string
	// Said are the opponent's words the mail passes on (messages.go).
	Said []saidText
	// drawing is the board still to draw into Board and BoardHTML
	// (execute).
	drawing *drawing
	// pgn is the game's record to attach, which Attachment names.
	pgn []byte
}

// drawing is a mail's board, to be drawn as text and (html) as a table,
// in the recipient's board format (boardDiagram, boardList, boardBoth).
type drawing struct {
	view   *rules.View
	html   bool
	opts   htmlboard.Options
	format string
}

// text is the board of the text part: the ASCII diagram, the piece list
// (rules.View.List), or the diagram and below it the list's lines.
func (dr *drawing) text() string {
	w := rules.WordsIn(dr.opts.Lang)
	switch dr.format {
	case boardList:
		return dr.view.List(w)
	case boardBoth:
		return dr.view.ASCIIIn(w) + "\n" + strings.Join(dr.view.ListLines(w), "\n") + "\n"
	}
	return dr.view.ASCIIIn(w)
}

// table is the board of the HTML part: the table (rules/htmlboard), the
// piece list (pieceListHTML) or the table and below it the list.
func (dr *drawing) table() template.HTML {
	w := rules.WordsIn(dr.opts.Lang)
	switch dr.format {
	case boardList:
		return pieceListHTML(dr.view, w, true)
	case boardBoth:
		return htmlboard.Render(dr.view, dr.opts) + "\n" + pieceListHTML(dr.view, w, false)
	}
	return htmlboard.Render(dr.view, dr.opts)
}

// pieceListHTML is a view's piece list as HTML, in the words w: (whole)
// the title, then a list with one item per side (and the stacks, the
// special squares), then the turn and the status lines as paragraphs;
// else the list alone. The list's wrapped lines are joined again: a
// browser wraps them.
func pieceListHTML(v *rules.View, w *rules.Words, whole bool) template.HTML {
	var b strings.Builder
	esc := template.HTMLEscapeString
	if whole {
		fmt.Fprintf(&b, "<p><strong>%s</strong></p>\n", esc(v.TitleIn(w)))
	}
	b.WriteString("<ul>\n")
	var items []string
	for _, line := range v.ListLines(w) {
		if rest, cont := strings.CutPrefix(line, "  "); cont && len(items) > 0 {
			items[len(items)-1] += " " + rest
		} else {
			items = append(items, line)
		}
	}
	for _, it := range items {
		fmt.Fprintf(&b, "<li>%s</li>\n", esc(it))
	}
	b.WriteString("</ul>\n")
	if whole {
		if !v.TurnSaid {
			fmt.Fprintf(&b, "<p>%s</p>\n", esc(v.TurnIn(w)))
		}
		for _, s := range v.StatusIn(w) {
			fmt.Fprintf(&b, "<p>%s</p>\n", esc(s))
		}
	}
	return template.HTML(b.String())
}

type gameInfo struct {
	Tag, Variant, White, Black, Time string
	Sides                            [2]string
}

// execute runs the text and HTML templates of a kind of mail, the board
// drawn first (md.drawing).
func execute(kind string, md mailData) (txt, html string, err error) {
	if dr := md.drawing; dr != nil {
		md.Board = dr.text()
		if dr.html {
			md.BoardHTML = dr.table()
		}
	}
	var t, ht strings.Builder
	// Room for the boards and the rest, so the parts are written without
	// growing their buffers (a board mail's HTML is mostly its table).
	t.Grow(len(md.Board) + 2048)
	ht.Grow(len(md.BoardHTML) + len(md.Board) + 4096)
	if err := templates.Text(md.Lang).ExecuteTemplate(&t, kind+".txt", md); err != nil {
		return "", "", fmt.Errorf("game: template %s.txt: %w", kind, err)
	}
	if err := templates.HTML(md.Lang).ExecuteTemplate(&ht, kind+".html", md); err != nil {
		return "", "", fmt.Errorf("game: template %s.html: %w", kind, err)
	}
	return t.String(), asciiHTML(ht.String()), nil
}

// asciiHTML is an HTML text with every character outside ASCII written as a
// character reference (the "·" of a subject in the title, a player's
// accented name), which a browser reads as the character itself: so the
// HTML part stays 7bit, as it is, and needs no quoted-printable.
func asciiHTML(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if r < utf8.RuneSelf {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "&#%d;", r)
		}
	}
	return b.String()
}
