package game

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/htmlboard"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

// renderer renders a handling's drafts into mails and queues them in the
// outbox (handling.flush). What a mail shows is gathered on the writer, in
// the transaction: its template data (mailData), header fields, attachment
// and Message-ID make a mailJob. The job's templates and bytes are work
// deferred to the commit (store.Tx.Defer): they are made once every function
// of the commit's group has run, side by side with the group's other mails,
// while the write transaction stays open; then, back on the writer, the
// job's finish queues the mail in the transaction, or, for a mail over the
// size limit, renders it again smaller (shrink) and queues that.
//
// The renderer keeps what it read for all the handling's mails: the games'
// logs, the recipients' settings and the finished games' records. A mail
// rendered again in a finish runs after the group's later functions, and
// must show what its first rendering showed.
type renderer struct {
	s      *Service
	tx     *store.Tx
	now    time.Time
	clocks *clocks // the handling's: the deadlines the mails show

	logs  map[uint64][]store.Record // the games' logs, read and verified once (log)
	metas map[string]*playerMeta    // the recipients' settings (recipientMeta)
	pgns  map[uint64][]byte         // the finished games' records, made once (finalPGN)
	// tournaments are the tournaments of the games mailed, read once
	// (standing).
	tournaments map[uint64]*tournament
}

// newRenderer is a renderer of mails in tx at now, their deadlines timed by c.
func (s *Service) newRenderer(tx *store.Tx, now time.Time, c *clocks) *renderer {
	return &renderer{s: s, tx: tx, now: now, clocks: c,
		logs: map[uint64][]store.Record{}, metas: map[string]*playerMeta{}, pgns: map[uint64][]byte{}}
}

// queue renders a draft and queues the mail: gathered here (job), made by
// the deferred work, queued in its finish; a mail over the size limit is
// made again, smaller, in the finish (shrink). Its new Message-ID is drawn
// then, after those of the handling's later mails: with the service's
// random source that changes nothing.
func (r *renderer) queue(d *draft) error {
	job, err := r.job(d)
	if err != nil {
		return err
	}
	return r.deferMail(job, func(size int) ([]byte, error) { return r.shrink(d, size) })
}

// queueAnswer renders the drafts addressed to the sender of the incoming
// mail as one mail (answerJob) and queues it as queue does; an answer over
// the size limit is made again with plain boards, then as its primary draft
// alone (answerTooLarge).
func (r *renderer) queueAnswer(ds []*draft) error {
	if len(ds) == 1 {
		return r.queue(ds[0])
	}
	job, _, err := r.answerJob(ds, false)
	if err != nil {
		return err
	}
	return r.deferMail(job, func(int) ([]byte, error) { return r.answerTooLarge(ds) })
}

// deferMail hands a mail's job to the commit (store.Tx.Defer) and queues
// the bytes it makes in the job's finish, in the transaction, where a mail
// over its limit is replaced by what tooLarge makes of its size.
func (r *renderer) deferMail(job *mailJob, tooLarge func(size int) ([]byte, error)) error {
	return r.tx.Defer(job, func(tx *store.Tx, data []byte) error {
		if len(data) > job.limit() {
			var err error
			if data, err = tooLarge(len(data)); err != nil {
				return err
			}
		}
		return tx.Enqueue(&store.Mail{Game: job.game, From: job.mail.From.Address, To: []string{job.mail.To}, Data: data, Created: r.now})
	})
}

// job gathers the mail of one draft: its template data, its game thread and
// a Message-ID.
func (r *renderer) job(d *draft) (*mailJob, error) {
	md, refs, err := r.mailData(d)
	if err != nil {
		return nil, err
	}
	id, err := r.mailID(d)
	if err != nil {
		return nil, err
	}
	return newMailJob(r.s.from, r.now, d, id, refs, mailPart{d.kind, md}), nil
}

// render makes the mail of a draft at once, on the writer, and says the
// most it may weigh (mailJob.limit).
func (r *renderer) render(d *draft) ([]byte, int, error) {
	job, err := r.job(d)
	if err != nil {
		return nil, 0, err
	}
	data, err := job.Run()
	return data, job.limit(), err
}

// answerJob gathers an answer of several drafts, with its boards plain or
// not, and returns it with its primary draft. One incoming mail gets one
// answer. The primary draft (primaryDraft) comes last, after what the other
// drafts say; its subject, thread, Reply-To, attachment and footer are the
// mail's.
func (r *renderer) answerJob(ds []*draft, plain bool) (*mailJob, *draft, error) {
	p := primaryDraft(ds)
	order := append(append(append([]*draft(nil), ds[:p]...), ds[p+1:]...), ds[p])
	parts := make([]mailPart, len(order))
	var main *draft // the copy of the primary draft rendered
	var refs []string
	for i, d := range order {
		c := *d
		c.plainBoard, c.cutRecord = plain, plain
		md, rf, err := r.mailData(&c)
		if err != nil {
			return nil, nil, err
		}
		if d == ds[p] {
			refs, main = rf, &c
		}
		parts[i] = mailPart{d.kind, md}
	}
	for i := range parts {
		parts[i].data.Subject = parts[len(parts)-1].data.Subject
		parts[i].data.NoHead, parts[i].data.NoFoot = i > 0, i < len(parts)-1
	}
	id, err := r.mailID(main)
	if err != nil {
		return nil, nil, err
	}
	return newMailJob(r.s.from, r.now, main, id, refs, parts...), ds[p], nil
}

// primaryDraft is the index of an answer's primary draft: the last board
// mail about a game (a receipt, a refusal, the end: it names the game's
// state best), else the last draft about a game, else the last.
func primaryDraft(ds []*draft) int {
	for i := len(ds) - 1; i >= 0; i-- {
		if ds[i].game != nil && (ds[i].kind == "update" || ds[i].kind == "final") {
			return i
		}
	}
	for i := len(ds) - 1; i >= 0; i-- {
		if ds[i].game != nil {
			return i
		}
	}
	return len(ds) - 1
}

// answerTooLarge renders an answer of several drafts that was too large:
// with plain boards, and if that is still too large, the primary draft
// alone, bounded.
func (r *renderer) answerTooLarge(ds []*draft) ([]byte, error) {
	job, primary, err := r.answerJob(ds, true)
	if err != nil {
		return nil, err
	}
	data, err := job.Run()
	if err != nil || len(data) <= job.limit() {
		return data, err
	}
	// Too large even with plain boards: the primary draft alone, bounded.
	return r.renderBounded(primary)
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
// its game thread. Its lists are the draft's; a notice it adds is appended
// to a copy.
func (r *renderer) mailData(d *draft) (mailData, []string, error) {
	md := mailData{Lang: d.lang, Address: r.s.cfg.Address, Notices: slices.Clip(d.notices), Errors: d.errors, Ignored: d.ignored,
		Commitments: d.commitments, YourSide: d.yourSide, From: d.fromName, Newcomer: d.newcomer,
		Result: d.result, Record: d.record, Report: d.report, Games: d.games, VariantHelp: d.variantHelp,
		Variants: variantIDs, Tables: d.tables, Said: d.said}
	var refs []string
	if d.kind == "welcome" {
		md.Personal = d.replyTo
		md.Held = d.held
	}
	md.Subject = d.subject
	if l := d.game; l != nil {
		if err := r.gameData(l, d, r.recipientMeta(d.to), &md); err != nil {
			return md, nil, err
		}
		if root := l.threadRoot(d.viewer); root != d.messageID {
			refs = append(refs, root)
		}
	}
	if md.Subject == "" {
		md.Subject = "bottlepost"
	}
	return md, refs, nil
}

// threadRoot is the Message-ID that a game's mails to viewer reference:
// a player's start mail (gameMeta.Roots), else the game's own Root.
func (l *loaded) threadRoot(viewer rules.Viewer) string {
	if side, player := viewer.Side(); player && l.meta.Roots[side] != "" {
		return l.meta.Roots[side]
	}
	return l.meta.Root
}

// seatRoot is the thread root of a game's seat (gameMeta.Roots): the
// game's Root with the side before its domain.
func seatRoot(root string, side int) string {
	at := strings.LastIndexByte(root, '@')
	return fmt.Sprintf("%s.%d%s", root[:at], side, root[at:])
}

// recipientMeta is the settings of a mail's recipient (the defaults for an
// address that is no player), read once.
func (r *renderer) recipientMeta(to string) *playerMeta {
	if pm, ok := r.metas[to]; ok {
		return pm
	}
	pm := &playerMeta{}
	if p, err := r.tx.PlayerByAddress(to); err == nil {
		pm = decodePlayerMeta(p)
	}
	r.metas[to] = pm
	return pm
}

// gameData fills in what a game mail shows the draft's recipient: the
// players, the subject, the board, whose turn and the deadline, the record.
func (r *renderer) gameData(l *loaded, d *draft, pm *playerMeta, md *mailData) error {
	sides := l.sidesIn(d.lang)
	md.Game = &gameInfo{Tag: strings.Trim(mailfmt.FormatTag(l.g.ID), "[]"), Variant: l.v.Name(), White: nameAndAddress(l.seats[0]),
		Black: nameAndAddress(l.seats[1]), Sides: sides}
	if tc, err := timing.ParseTimeControl(l.meta.Time); err == nil {
		md.Game.Time = tc.DescribeIn(d.lang)
	}
	switch {
	case d.viewer == rules.ViewPublic:
		// Observers learn the players' names (as the web shows them), never
		// their addresses.
		md.Game.White, md.Game.Black = displayName(l.seats[0]), displayName(l.seats[1])
	case l.meta.Phase == phaseOpen:
		md.Game.Black, md.Game.White = d.tr("(open)"), d.tr("(open)")
		if l.meta.Challenger == 0 {
			md.Game.White = nameAndAddress(l.seats[0])
		} else {
			md.Game.Black = nameAndAddress(l.seats[1])
		}
	}
	for i, en := range l.sides() {
		if md.YourSide == en {
			md.YourSide = sides[i] // the side's name in the recipient's language
		}
	}
	md.Subject = subject(l, d)
	// Every game mail quotes the receipt, an invitation to a player too: it anchors
	// the start record, which fixes the terms offered (variant, ruleset, setup, time
	// control). A stranger's first invitation does not: a 64-digit number means
	// nothing to someone who has not yet met the service.
	if d.kind != "invitation" || !d.newcomer {
		md.Receipt = store.Receipt{Records: l.g.Records, Head: l.g.Head}.String()
	}
	md.Over = l.meta.Phase == phaseOver
	md.Hidden = l.v.Hidden()
	if d.pgn {
		pgn, err := r.finalPGN(l.g.ID)
		if err != nil {
			return err
		}
		if len(pgn) <= MaxPGNBytes {
			md.pgn, md.Attachment = pgn, pgnName(l.g.ID)
		} else {
			md.Notices = append(md.Notices, d.tr("The game's record (%d KB) is too large to attach; the service's operator can write it with bottlepost export %d.", len(pgn)>>10, l.g.ID))
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
		// A final mail says how the game ended above its board, once.
		view.TurnSaid = d.final
		// Drawn when the templates run (execute), by the mail's deferred
		// work: the view is this mail's own, and the board it reads is
		// static data.
		md.drawing = &drawing{view: view, html: !d.plainBoard, opts: htmlboard.Options{Last: htmlboard.LastMove(d.last, l.v.Board(), viewer), Lang: d.lang},
			format: pm.boardFormat()}
	}
	if first := l.firstMover(); first != rules.White && (l.state.Ply() == 0 || d.history || d.final || d.kind != "update") {
		// Said where it matters: before the first move, and over records.
		md.FirstMover = d.tr("In %[1]s, %[2]s moves first: each numbered move is %[2]s's, then %[3]s's answer.",
			l.v.Name(), sides[first], sides[1-first])
	}
	if l.meta.Phase == phasePlay && d.kind != "history" && d.kind != "audit" {
		toMove := l.state.ToMove()
		switch {
		case d.viewer == rules.Viewer(toMove):
			md.Turn = d.tr("It is your move.")
		case d.viewer <= rules.ViewBlack:
			md.Turn = d.tr("Waiting for %s's move.", sides[toMove])
		default:
			md.Turn = d.tr("%s to move.", sides[toMove])
		}
		md.Deadline = r.clocks.deadlineIn(l, pm, d.lang)
	}
	if d.lastMoves || d.history || d.final {
		if err := r.fillRecord(l, d, pm, md); err != nil {
			return err
		}
	}
	if d.kind == "invitation" && d.to != "" {
		md.VariantHelp = variantHelpIn(l.v, d.lang)
	}
	if d.final {
		md.Result = l.g.Result
		md.Reason = outcomeIn(l, d.lang)
		md.Ratings = ratingChanges(l, int(d.viewer), d.lang)
	}
	standing, err := r.standing(l, d.viewer, d.lang)
	if err != nil {
		return err
	}
	md.Standing = standing
	if d.kind == "invitation" || d.kind == "challenge" {
		terms, err := r.ratingTerms(l, d.lang)
		if err != nil {
			return err
		}
		md.Ratings = terms
	}
	return nil
}

// mailID is the Message-ID of a draft's mail: the one it was given (a
// welcome's), else a fresh one.
func (r *renderer) mailID(d *draft) (string, error) {
	if d.messageID != "" {
		return d.messageID, nil
	}
	return r.s.messageID("m")
}

// fillRecord puts the record lines the recipient may read into the mail:
// the last few moves, the whole record, or (when the game is over) the
// referee's record with every secret move revealed and the openings.
func (r *renderer) fillRecord(l *loaded, d *draft, pm *playerMeta, md *mailData) error {
	sides := l.sidesIn(d.lang)
	log, err := r.log(l.g.ID)
	if err != nil {
		return err
	}
	if d.final {
		plies, err := replay(l, log)
		if err != nil {
			return err
		}
		md.Record = recordLines(plies, rules.ViewReferee)
		if n := len(md.Record); d.cutRecord && n > 200 {
			md.Record = append([]string{d.tr("(the first %d lines are left out: this mail is limited to %d KB; the export has the whole record)", n-200, MaxReplyBytes>>10)}, md.Record[n-200:]...)
		}
		for _, rec := range log {
			if rec.Secret && rec.Opening != nil {
				md.Openings = append(md.Openings,
					d.tr("%s %s (%s's secret move)", rules.MoveLabel(int(rec.Ply)), rec.Opening.Text, sides[rec.Side]),
					"  key        "+hex.EncodeToString(rec.Opening.Key[:]),
					"  commitment "+rec.Commitment.String())
			}
		}
		return nil
	}
	var texts []string
	standing := standingMoves(log)
	for _, rec := range standing {
		text := rec.Public
		if d.viewer <= rules.ViewBlack {
			text = rec.Lines[d.viewer]
		}
		texts = append(texts, text)
	}
	if d.history {
		md.Record = rules.RecordLines(0, texts, textWidth-2)
		return nil
	}
	from := max(0, len(texts)-4)
	if pm.iccf() && d.viewer <= rules.ViewBlack {
		if err := iccfMoves(l, standing, texts, from); err != nil {
			return err
		}
	}
	md.Moves = rules.NumberedMoves(from, texts[from:])
	return nil
}

// iccfMoves adds the ICCF numeric notation to the texts of a chess game's
// standing moves from from on (withICCF), replaying them from the start; a
// variant without ICCF notation is left as it is. Only a player's own
// games without hidden moves have it, so the replay reads nothing secret.
func iccfMoves(l *loaded, standing []store.Record, texts []string, from int) error {
	st, err := l.v.New(rules.Options{Ruleset: l.g.Ruleset, Seed: l.meta.Seed})
	if err != nil {
		return err
	}
	if _, ok := st.(rules.ICCFWriter); !ok || l.v.Hidden() {
		return nil
	}
	iccf := &playerMeta{Notation: notationICCF}
	for i, rec := range standing {
		m, err := st.Parse(rec.Text)
		if err != nil {
			return fmt.Errorf("game: game %d: replaying %s: %w", l.g.ID, rec.Text, err)
		}
		if i >= from {
			texts[i] = withICCF(iccf, st, m, texts[i])
		}
		if st, _, err = st.Apply(m); err != nil {
			return fmt.Errorf("game: game %d: replaying %s: %w", l.g.ID, rec.Text, err)
		}
	}
	return nil
}

// log returns a game's records (store.Tx.Log), read and verified once for
// all the mails rendered (the mover's receipt and the opponent's news, and
// any mail rendered again to fit the size limit): the handling's commands
// have all run, and a mail rendered again in a deferred finish reads the
// log as the first rendering did, not as the group's later functions left
// it.
func (r *renderer) log(id uint64) ([]store.Record, error) {
	if recs, ok := r.logs[id]; ok {
		return recs, nil
	}
	recs, err := r.tx.Log(id)
	if err == nil {
		r.logs[id] = recs
	}
	return recs, err
}

// finalPGN is record.FinalPGN, made once per game for all the mails (a
// game's end mails the same record to both players and every observer).
func (r *renderer) finalPGN(id uint64) ([]byte, error) {
	if pgn, ok := r.pgns[id]; ok {
		return pgn, nil
	}
	pgn, err := record.FinalPGN(r.tx, id)
	if err != nil {
		return nil, err
	}
	r.pgns[id] = pgn
	return pgn, nil
}

// messageID makes a fresh Message-ID (without brackets) in our domain.
func (s *Service) messageID(prefix string) (string, error) {
	var b [10]byte
	if _, err := s.rand.Read(b[:]); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s.%s@%s", prefix, hex.EncodeToString(b[:]), s.domain), nil
}
