package game

import (
	"encoding/hex"
	"fmt"
	"html/template"
	"strings"

	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/htmlboard"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/templates"
	"github.com/bottlepost/bottlepost/timing"
)

type draftKey struct {
	to   string
	game uint64
	kind string
}

// draft is a mail being assembled while commands run; it is rendered once
// all commands have run, so it shows the final state.
type draft struct {
	kind      string
	to        string
	game      *loaded
	viewer    rules.Viewer
	subject   string
	replyTo   string
	inReplyTo string

	notices, errors, ignored, commitments []string
	board, lastMoves, history, final      bool
	pgn                                   bool   // attach the game's record (FinalPGN)
	pgnData                               []byte // the record attached, set when rendering
	record, report, games                 []string
	yourSide, fromAddr, variantHelp       string
	result                                string
	newcomer                              bool
	// last is the report of the move the mail is about (its squares are
	// highlighted on the HTML board as the recipient may know them).
	last *rules.Report
	// refused is the text of a move refused in this mail, for the subject.
	refused string
	// plainBoard draws the HTML part's board as text, cutRecord keeps only
	// the end of a long record: a mail that would be too large is rendered
	// again with them (renderBounded).
	plainBoard, cutRecord bool
	// held are the commands a welcome quotes and holds; messageID, when
	// set, is the mail's Message-ID (a welcome's, which a reply quotes).
	held      []string
	messageID string
}

// draft returns the draft for (to, game, kind), creating it.
func (h *handling) draft(to string, l *loaded, kind string) *draft {
	to = mailfmt.Key(to)
	var id uint64
	if l != nil {
		id = l.g.ID
	}
	k := draftKey{to, id, kind}
	if d, ok := h.drafts[k]; ok {
		return d
	}
	d := &draft{kind: kind, to: to, game: l, viewer: rules.ViewPublic}
	if to == h.from {
		d.inReplyTo = h.in.MessageID
	}
	if l != nil {
		if side := l.sideOf(to); side >= 0 {
			d.viewer = rules.Viewer(side)
			d.replyTo = h.s.replyAddress(h.s.seatToken(l.g.ID, side, l.g.Seats[side].Player))
		}
	}
	if d.replyTo == "" && h.player != nil && to == h.from {
		d.replyTo = h.s.replyAddress(h.s.accountToken(to))
	}
	h.drafts[k] = d
	h.order = append(h.order, k)
	return d
}

// sideOf is the seat of an address in the game, or -1.
func (l *loaded) sideOf(addr string) int {
	for i, p := range l.seats {
		if p != nil && mailfmt.Key(p.Address) == addr {
			if l.meta.Phase == phaseOpen && i != l.meta.Challenger {
				continue
			}
			return i
		}
	}
	return -1
}

// mailData is what the templates see.
type mailData struct {
	Subject, Address, Receipt, Attachment, Board, Turn, Deadline, Hint, Personal, VariantHelp string
	From, YourSide, Result, Reason, FirstMover                                                string
	Newcomer, Over                                                                            bool
	// NoHead and NoFoot leave out the HTML head and the footer: for the
	// parts of an answer that joins several drafts (answerData).
	NoHead, NoFoot bool
	// BoardHTML is the board as an HTML table (rules/htmlboard), for the HTML part.
	BoardHTML                                                         template.HTML
	Game                                                              *gameInfo
	Notices, Errors, Ignored, Commitments, Variants, Record, Openings []string
	Moves                                                             string
	Held                                                              []string
	Games, Report                                                     []string
	// drawing is the board still to draw into Board and BoardHTML
	// (execute).
	drawing *drawing
}

// drawing is a mail's board, to be drawn as text and (html) as a table.
type drawing struct {
	view *rules.View
	html bool
	opts htmlboard.Options
}

type gameInfo struct {
	Tag, Variant, White, Black, Time string
	Sides                            [2]string
}

// flush renders every draft and queues it in the outbox. It also writes the
// games changed by commands that did not save them. What a mail shows is
// gathered here, in the transaction; its templates and its bytes are made
// by work deferred to the commit (store.Tx.Defer), side by side with the
// other mails of the commit's group and without holding the one writer,
// and the mail is queued in the same transaction once made: it is
// committed with the move or not at all. It returns the number of mails.
func (h *handling) flush() (int, error) {
	for id := range h.dirty {
		l := h.games[id]
		if !l.g.Archived {
			if err := h.save(l); err != nil {
				return 0, err
			}
		}
	}
	// Logs and recipients' settings read while rendering are kept until the
	// mails are made, in the finishes of their deferred work too.
	h.logs, h.metas = map[uint64][]store.Record{}, map[string]*playerMeta{}
	n := 0
	var mine []*draft // the answer to the sender: one mail, however many drafts
	for _, k := range h.order {
		d := h.drafts[k]
		if d.empty() {
			continue
		}
		if k.to == h.from {
			mine = append(mine, d)
			continue
		}
		if err := h.queue(d); err != nil {
			return n, err
		}
		n++
	}
	if len(mine) == 0 || h.quiet() {
		return n, nil
	}
	if err := h.queueAnswer(mine); err != nil {
		return n, err
	}
	return n + 1, nil
}

// queue renders a draft and queues the mail (flush): the template data
// here, the rest deferred (deferMail); a mail over the size limit is made
// again, smaller, in the finish (shrink), from the logs and settings flush
// read. Its new Message-ID is drawn then, after those of the handling's
// later mails: with the service's random source that changes nothing.
func (h *handling) queue(d *draft) error {
	md, refs, err := h.mailData(d)
	if err != nil {
		return err
	}
	id, err := h.mailID(d)
	if err != nil {
		return err
	}
	return h.deferMail(d, func() ([]byte, int, error) {
		txt, html, err := execute(d.kind, md)
		if err != nil {
			return nil, 0, err
		}
		return h.makeMail(d, id, md.Subject, refs, txt, html)
	}, func(size int) ([]byte, error) { return h.shrink(d, size) })
}

// queueAnswer renders the drafts addressed to the sender of the incoming
// mail as one mail (answerData) and queues it, its templates and bytes made
// by deferred work as in queue; an answer over the size limit is made again
// with plain boards, then as its primary draft alone (answerTooLarge).
func (h *handling) queueAnswer(ds []*draft) error {
	if len(ds) == 1 {
		return h.queue(ds[0])
	}
	a, err := h.answerData(ds, false)
	if err != nil {
		return err
	}
	return h.deferMail(a.primary, func() ([]byte, int, error) { return h.composeAnswer(a) },
		func(int) ([]byte, error) { return h.answerTooLarge(ds) })
}

// deferMail queues the mail about d's game to d's recipient whose bytes,
// and the bytes its attachments take, compose makes: compose as work
// deferred to the commit (store.Tx.Defer), outside the transaction; the
// queueing in its finish, where a mail over the size limit is replaced by
// what tooLarge makes of its size, in the transaction.
func (h *handling) deferMail(d *draft, compose func() ([]byte, int, error), tooLarge func(size int) ([]byte, error)) error {
	var game uint64
	if d.game != nil {
		game = d.game.g.ID
	}
	var data []byte
	var attached int
	return h.tx.Defer(func() (err error) {
		data, attached, err = compose()
		return err
	}, func(tx *store.Tx) error {
		if len(data) > MaxReplyBytes+attached {
			var err error
			if data, err = tooLarge(len(data)); err != nil {
				return err
			}
		}
		return tx.Enqueue(&store.Mail{Game: game, From: h.s.from.Address, To: []string{d.to}, Data: data, Created: h.now})
	})
}

// answerMail is an answer's drafts gathered for rendering (answerData): the
// drafts in the order of the mail, their template data, the primary draft
// and the copy of it rendered (with its attachment), the thread's
// References and the Message-ID.
type answerMail struct {
	order         []*draft
	mds           []mailData
	primary, main *draft
	refs          []string
	id            string
}

// answerTooLarge renders an answer of several drafts that was too large:
// with plain boards, and if that is still too large, the primary draft
// alone, bounded.
func (h *handling) answerTooLarge(ds []*draft) ([]byte, error) {
	a, err := h.answerData(ds, true)
	if err != nil {
		return nil, err
	}
	data, attached, err := h.composeAnswer(a)
	if err != nil || len(data) <= MaxReplyBytes+attached {
		return data, err
	}
	// Too large even with plain boards: the primary draft alone, bounded.
	return h.renderBounded(a.primary)
}

// answerData gathers, in the transaction, what an answer of several drafts
// shows, with its boards plain or not. One incoming mail gets one answer.
// The last board mail about a game (else the last draft about a game) is
// the primary one: its subject, thread, Reply-To and footer are the mail's,
// and it comes last, after what the other drafts say (the commands that were
// about no game, or about other games).
func (h *handling) answerData(ds []*draft, plain bool) (answerMail, error) {
	p := len(ds) - 1
	for i := len(ds) - 1; i >= 0; i-- {
		if ds[i].game != nil {
			p = i
			break
		}
	}
	for i := len(ds) - 1; i >= 0; i-- {
		// A board mail about the game (a receipt, a refusal, the end) names
		// the game's state best.
		if ds[i].game != nil && (ds[i].kind == "update" || ds[i].kind == "final") {
			p = i
			break
		}
	}
	a := answerMail{order: append(append(append([]*draft(nil), ds[:p]...), ds[p+1:]...), ds[p]), primary: ds[p]}
	a.mds = make([]mailData, len(a.order))
	for i, d := range a.order {
		c := *d
		c.plainBoard, c.cutRecord = plain, plain
		md, r, err := h.mailData(&c)
		if err != nil {
			return a, err
		}
		if d == a.primary {
			a.refs, a.main = r, &c
		}
		a.mds[i] = md
	}
	var err error
	a.id, err = h.mailID(a.main)
	return a, err
}

// composeAnswer executes the templates of an answer's drafts and writes
// the mail. It uses no transaction, and may run beside other work.
func (h *handling) composeAnswer(a answerMail) ([]byte, int, error) {
	var txt, html []string
	for i, d := range a.order {
		md := a.mds[i]
		md.Subject = a.mds[len(a.mds)-1].Subject
		md.NoHead, md.NoFoot = i > 0, i < len(a.order)-1
		t, ht, err := execute(d.kind, md)
		if err != nil {
			return nil, 0, err
		}
		txt, html = append(txt, strings.TrimRight(t, "\n")+"\n"), append(html, ht)
	}
	md := a.mds[len(a.mds)-1]
	return h.makeMail(a.main, a.id, md.Subject, a.refs, strings.Join(txt, "\n"), strings.Join(html, "<hr>\n"))
}

// empty reports whether a draft has nothing to say (the plain reply draft
// when every command answered in a mail of its own).
func (d *draft) empty() bool {
	switch d.kind {
	case "notice", "update":
		return len(d.notices) == 0 && len(d.errors) == 0 && len(d.ignored) == 0 && !d.board && len(d.commitments) == 0
	}
	return false
}

// render turns a draft into the bytes of a mail: the template data, the
// templates, then the message.
func (h *handling) render(d *draft) ([]byte, error) {
	md, refs, err := h.mailData(d)
	if err != nil {
		return nil, err
	}
	return h.compose(d, md, refs)
}

// variantIDs lists the variants built in, for the mails that name them
// (made once; full, so that appending to it copies it).
var variantIDs = func() []string {
	var ids []string
	for _, v := range variants.All() {
		ids = append(ids, v.ID())
	}
	return ids[:len(ids):len(ids)]
}()

// mailData gathers what a draft's templates show, and the References of
// its game thread.
func (h *handling) mailData(d *draft) (mailData, []string, error) {
	md := mailData{Address: h.s.cfg.Address, Notices: d.notices, Errors: d.errors, Ignored: d.ignored,
		Commitments: d.commitments, YourSide: d.yourSide, From: d.fromAddr, Newcomer: d.newcomer,
		Result: d.result, Record: d.record, Report: d.report, Games: d.games, VariantHelp: d.variantHelp,
		Variants: variantIDs}
	var refs []string
	if d.kind == "welcome" {
		md.Personal = d.replyTo
		md.Held = d.held
	}
	md.Subject = d.subject
	if l := d.game; l != nil {
		if err := h.gameData(l, d, h.recipientMeta(d.to), &md); err != nil {
			return md, nil, err
		}
		refs = append(refs, l.meta.Root)
	}
	if md.Subject == "" {
		md.Subject = "bottlepost"
	}
	return md, refs, nil
}

// recipientMeta is the settings of a mail's recipient (the defaults for an
// address that is no player), read once per handling while flush renders.
func (h *handling) recipientMeta(to string) *playerMeta {
	if pm, ok := h.metas[to]; ok {
		return pm
	}
	pm := &playerMeta{}
	if p, err := h.tx.PlayerByAddress(to); err == nil {
		pm = decodePlayerMeta(p)
	}
	if h.metas != nil {
		h.metas[to] = pm
	}
	return pm
}

// gameData fills in what a game mail shows the draft's recipient: the
// players, the subject, the board, whose turn and the deadline, the record.
func (h *handling) gameData(l *loaded, d *draft, pm *playerMeta, md *mailData) error {
	sides := l.sides()
	md.Game = &gameInfo{Tag: strings.Trim(mailfmt.FormatTag(l.g.ID), "[]"), Variant: l.v.Name(), White: l.seats[0].Address,
		Black: l.seats[1].Address, Sides: sides}
	if tc, err := timing.ParseTimeControl(l.meta.Time); err == nil {
		md.Game.Time = tc.Describe()
	}
	switch {
	case d.viewer == rules.ViewPublic:
		// Observers learn the sides, not who plays them.
		md.Game.White, md.Game.Black = sides[0]+" player", sides[1]+" player"
	case l.meta.Phase == phaseOpen:
		md.Game.Black, md.Game.White = "(open)", "(open)"
		if l.meta.Challenger == 0 {
			md.Game.White = l.seats[0].Address
		} else {
			md.Game.Black = l.seats[1].Address
		}
	}
	md.Subject = h.subject(l, d)
	// Every game mail quotes the receipt, an invitation to a player too: it anchors
	// the start record, which fixes the terms offered (variant, ruleset, setup, time
	// control). A stranger's first invitation does not: a 64-digit number means
	// nothing to someone who has not yet met the service.
	if d.kind != "invitation" || !d.newcomer {
		md.Receipt = store.Receipt{Records: l.g.Records, Head: l.g.Head}.String()
	}
	md.Over = l.meta.Phase == phaseOver
	if d.pgn {
		pgn, err := h.finalPGN(l.g.ID)
		if err != nil {
			return err
		}
		if len(pgn) <= MaxPGNBytes {
			d.pgnData, md.Attachment = pgn, pgnName(l.g.ID)
		} else {
			md.Notices = append(md.Notices, fmt.Sprintf("The game's record (%d KB) is too large to attach; the service's operator can write it with bottlepost export %d.", len(pgn)>>10, l.g.ID))
		}
	}
	viewer := d.viewer
	if l.meta.Phase == phaseOver && (d.final || d.kind == "audit") {
		viewer = rules.ViewReferee // the game is over: nothing is secret any more
	}
	if d.board || d.final {
		view := l.state.View(viewer)
		if o := l.meta.Outcome; o != nil && !view.Outcome.Over() {
			view.Outcome = *o // resigned, agreed, adjudicated, lost on time: no "to move" line
		}
		// Drawn when the templates run (execute), by the mail's deferred
		// work: the view is this mail's own, and the board it reads is
		// static data.
		md.drawing = &drawing{view: view, html: !d.plainBoard, opts: htmlboard.Options{Last: htmlboard.LastMove(d.last, l.v.Board(), viewer)}}
	}
	if first := l.firstMover(); first != rules.White && (l.state.Ply() == 0 || d.history || d.final || d.kind != "update") {
		// Said where it matters: before the first move, and over records.
		md.FirstMover = fmt.Sprintf("In %s, %s moves first: each numbered move is %s's, then %s's answer.",
			l.v.Name(), l.sides()[first], l.sides()[first], l.sides()[1-first])
	}
	if l.meta.Phase == phasePlay && d.kind != "history" && d.kind != "audit" {
		toMove := l.state.ToMove()
		switch {
		case d.viewer == rules.Viewer(toMove):
			md.Turn = "It is your move."
		case d.viewer <= rules.ViewBlack:
			md.Turn = fmt.Sprintf("Waiting for %s's move.", sides[toMove])
		default:
			md.Turn = sides[toMove] + " to move."
		}
		md.Deadline = h.deadlineText(l, pm)
	}
	if d.lastMoves || d.history || d.final {
		if err := h.fillRecord(l, d, md); err != nil {
			return err
		}
	}
	if d.kind == "invitation" && d.to != "" {
		md.VariantHelp = l.v.Help()
	}
	if d.final {
		md.Result = l.g.Result
		md.Reason = l.meta.Reason
	}
	return nil
}

// compose executes a draft's text and HTML templates and writes the mail
// (mailfmt.Outgoing), in the transaction.
func (h *handling) compose(d *draft, md mailData, refs []string) ([]byte, error) {
	txt, html, err := execute(d.kind, md)
	if err != nil {
		return nil, err
	}
	id, err := h.mailID(d)
	if err != nil {
		return nil, err
	}
	data, attached, err := h.makeMail(d, id, md.Subject, refs, txt, html)
	h.attached = attached
	return data, err
}

// execute runs the text and HTML templates of a kind of mail, the board
// drawn first (md.drawing).
func execute(kind string, md mailData) (txt, html string, err error) {
	if dr := md.drawing; dr != nil {
		md.Board = dr.view.ASCII()
		if dr.html {
			md.BoardHTML = htmlboard.Render(dr.view, dr.opts)
		}
	}
	var t, ht strings.Builder
	// Room for the boards and the rest, so the parts are written without
	// growing their buffers (a board mail's HTML is mostly its table).
	t.Grow(len(md.Board) + 2048)
	ht.Grow(len(md.BoardHTML) + len(md.Board) + 4096)
	if err := templates.Text.ExecuteTemplate(&t, kind+".txt", md); err != nil {
		return "", "", fmt.Errorf("game: template %s.txt: %w", kind, err)
	}
	if err := templates.HTML.ExecuteTemplate(&ht, kind+".html", md); err != nil {
		return "", "", fmt.Errorf("game: template %s.html: %w", kind, err)
	}
	return t.String(), ht.String(), nil
}

// mailID is the Message-ID of a draft's mail: the one it was given (a
// welcome's), else a fresh one.
func (h *handling) mailID(d *draft) (string, error) {
	if d.messageID != "" {
		return d.messageID, nil
	}
	return h.messageID("m")
}

// makeMail makes the mail of a draft from its rendered parts, and says how
// many of its bytes the attachments take (encoded). It reads only the
// draft, the service's settings and the handling's time, and uses no
// transaction: deferred work runs it beside other work.
func (h *handling) makeMail(d *draft, id, subject string, refs []string, txt, html string) ([]byte, int, error) {
	inReply := d.inReplyTo
	if inReply != "" {
		refs = append(refs[:len(refs):len(refs)], inReply)
	} else if len(refs) > 0 {
		inReply = refs[0]
	}
	var attach []mailfmt.Attachment
	attached := 0
	if pgn := d.pgnData; pgn != nil && d.game != nil {
		attach = append(attach, mailfmt.Attachment{Filename: pgnName(d.game.g.ID), ContentType: PGNType, Data: pgn})
		attached = (len(pgn)+2)/3*4*78/76 + 1024 // base64 in lines of 76, and the part's header
	}
	o := &mailfmt.Outgoing{From: h.s.from, To: d.to, Subject: subject, ReplyTo: d.replyTo, MessageID: id, InReplyTo: inReply,
		References: refs, Date: h.now, Text: wrapText(txt), HTML: html, Attachments: attach}
	data, err := o.Bytes()
	return data, attached, err
}

// fillRecord puts the record lines the recipient may read into the mail:
// the last few moves, the whole record, or (when the game is over) the
// referee's record with every secret move revealed and the openings.
func (h *handling) fillRecord(l *loaded, d *draft, md *mailData) error {
	sides := l.sides()
	if d.final {
		plies, log, err := h.replay(l)
		if err != nil {
			return err
		}
		md.Record = recordLines(plies, rules.ViewReferee)
		if n := len(md.Record); d.cutRecord && n > 200 {
			md.Record = append([]string{fmt.Sprintf("(the first %d lines are left out: this mail is limited to %d KB; the export has the whole record)", n-200, MaxReplyBytes>>10)}, md.Record[n-200:]...)
		}
		for _, r := range log {
			if r.Secret && r.Opening != nil {
				md.Openings = append(md.Openings,
					fmt.Sprintf("%s %s (%s's secret move)", rules.MoveLabel(int(r.Ply)), r.Opening.Text, sides[r.Side]),
					"  key        "+hex.EncodeToString(r.Opening.Key[:]),
					"  commitment "+r.Commitment.String())
			}
		}
		return nil
	}
	log, err := h.log(l.g.ID)
	if err != nil {
		return err
	}
	var texts []string
	for _, r := range log {
		if r.Kind != store.KindMove {
			continue
		}
		text := r.Public
		if d.viewer <= rules.ViewBlack {
			text = r.Lines[d.viewer]
		}
		texts = append(texts, text)
	}
	if d.history {
		md.Record = rules.RecordLines(0, texts, textWidth-2)
		return nil
	}
	from := max(0, len(texts)-4)
	md.Moves = rules.NumberedMoves(from, texts[from:])
	return nil
}

// log returns a game's records (store.Tx.Log). Once flush renders, a
// game's log is read and verified once for all its mails (the mover's
// receipt and the opponent's news, and any mail rendered again to fit the
// size limit): the handling's commands have all run, and a mail rendered
// again in a deferred finish reads the log as the first rendering did, not
// as the group's later functions left it.
func (h *handling) log(id uint64) ([]store.Record, error) {
	if recs, ok := h.logs[id]; ok {
		return recs, nil
	}
	recs, err := h.tx.Log(id)
	if err == nil && h.logs != nil {
		h.logs[id] = recs
	}
	return recs, err
}

// messageID makes a fresh Message-ID (without brackets) in our domain.
func (h *handling) messageID(prefix string) (string, error) {
	var b [10]byte
	if _, err := h.s.rand.Read(b[:]); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s.%s@%s", prefix, hex.EncodeToString(b[:]), h.s.domain), nil
}
