package store

// Verify's checks of the records beside the games: every stored value of every kind is
// decoded (and opened, where sealed), and what it points at must exist.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/bottlepost/bottlepost/mailfmt"
)

// verifyRecords decodes every record that is not a game or its log, and checks what each
// refers to: players (and their seats in the games), the address index, reply tokens,
// outbox mails, processed message ids, the welcomes counted, and log entries whose game is
// gone. It returns one problem a record, naming it.
func (tx *Tx) verifyRecords() []error {
	var errs []error
	add := func(err error) { errs = append(errs, err) }
	players := map[uint64]string{} // id → the address's key, of every player that decodes
	each(tx, bucketPlayers, add, func(k, v []byte) {
		p, err := decodePlayer(v)
		switch {
		case len(k) != 8:
			add(fmt.Errorf("store: the players bucket has a key %x that is not a player id: %w", k, ErrCorrupt))
		case err != nil:
			add(fmt.Errorf("store: player %d: %w", beUint64(k), err))
		case p.ID != beUint64(k):
			add(fmt.Errorf("store: player %d holds the record of player %d: %w", beUint64(k), p.ID, ErrCorrupt))
		case mailfmt.Key(p.Address) == "":
			add(fmt.Errorf("store: player %d: its address %q is not a mail address: %w", p.ID, p.Address, ErrCorrupt))
		default:
			players[p.ID] = mailfmt.Key(p.Address)
		}
	})
	indexed := map[uint64]bool{}
	each(tx, bucketAddresses, add, func(k, v []byte) {
		switch {
		case len(v) != 8:
			add(fmt.Errorf("store: the address index entry of %q is not a player id (%x): %w", k, v, ErrCorrupt))
		case players[beUint64(v)] == "" && tx.bucket(bucketPlayers).Get(v) == nil:
			add(fmt.Errorf("store: player %d: the address index names it for %q, but there is no such player: %w", beUint64(v), k, ErrCorrupt))
		case players[beUint64(v)] != "" && players[beUint64(v)] != string(k):
			add(fmt.Errorf("store: player %d: the address index names it for %q, but its address is %q: %w", beUint64(v), k, players[beUint64(v)], ErrCorrupt))
		default:
			indexed[beUint64(v)] = true
		}
	})
	for id, addr := range players {
		if !indexed[id] {
			add(fmt.Errorf("store: player %d: the address index lacks its address %q: %w", id, addr, ErrCorrupt))
		}
	}
	each(tx, bucketTokens, add, func(k, v []byte) {
		t, err := decodeToken(v)
		if err != nil {
			add(fmt.Errorf("store: a reply token (hash %x): %w", k[:min(len(k), 8)], err))
			return
		}
		g, err := tx.rawGame(t.Game)
		switch {
		case err != nil:
			add(fmt.Errorf("store: game %d: a reply token stands for a seat in it, but the game cannot be read: %w", t.Game, err))
		case g.Seats[t.Side].Player != t.Player:
			add(fmt.Errorf("store: game %d: a reply token stands for player %d as %s, whose seat is player %d's: %w", t.Game, t.Player, t.Side, g.Seats[t.Side].Player, ErrCorrupt))
		}
	})
	each(tx, bucketOutbox, add, func(k, v []byte) {
		m, err := decodeMail(v)
		switch {
		case len(k) != 8:
			add(fmt.Errorf("store: the outbox has a key %x that is not a mail id: %w", k, ErrCorrupt))
		case err != nil:
			add(fmt.Errorf("store: outbox mail %d: %w", beUint64(k), err))
		case m.ID != beUint64(k):
			add(fmt.Errorf("store: outbox mail %d holds the record of mail %d: %w", beUint64(k), m.ID, ErrCorrupt))
		default:
			if _, err := tx.s.vault.open(mailContext(m), m.Data); err != nil {
				add(fmt.Errorf("store: outbox mail %d: %w", m.ID, err))
			}
		}
	})
	each(tx, bucketProcessed, add, func(k, v []byte) {
		if _, err := decodeProcessed(v); err != nil || len(k) != 16 {
			add(fmt.Errorf("store: a processed message id (key %x): unreadable (%v): %w", k, err, ErrCorrupt))
		}
	})
	each(tx, bucketWelcomes, add, func(k, v []byte) {
		_, derr := decodeWelcomes(v)
		_, terr := time.Parse(welcomeDayLayout, string(k[:min(len(k), len(welcomeDayLayout))]))
		if derr != nil || terr != nil || len(k) != len(welcomeDayLayout)+16 {
			add(fmt.Errorf("store: a welcomes count (key %x): unreadable: %w", k, ErrCorrupt))
		}
	})
	errs = append(errs, tx.verifyLogOwners()...)
	return errs
}

// verifySeats checks that both seats of game g name a player that exists.
func (tx *Tx) verifySeats(g *Game) []error {
	var errs []error
	for side, seat := range g.Seats {
		if _, err := tx.Player(seat.Player); err != nil {
			errs = append(errs, &GameError{Game: g.ID, Err: fmt.Errorf("its %s seat's player %d cannot be read: %w", Side(side), seat.Player, err)})
		}
	}
	return errs
}

// verifyLogOwners finds log entries of games that do not exist: a log key with a damaged
// game id, or the log of a game whose record is gone. One problem a game id. A damaged
// page (bbolt panics) is passed over to the records of the next game that exists (log
// entries of no game between are not looked for): the game's own check names it.
func (tx *Tx) verifyLogOwners() []error {
	var errs []error
	// first is the first log key at or after game id's records.
	first := func(id uint64) (k []byte, damaged bool) {
		defer func() {
			if recover() != nil {
				k, damaged = nil, true
			}
		}()
		k, _ = tx.bucket(bucketLog).Cursor().Seek(be64(id))
		return bytes.Clone(k), false
	}
	for id := uint64(0); ; {
		k, damaged := first(id)
		switch {
		case damaged:
			next, ok := tx.nextGameID(id)
			if !ok {
				return errs
			}
			id = next
			continue
		case k == nil:
			return errs
		case len(k) != 12:
			errs = append(errs, fmt.Errorf("store: the log has a key %x that is not game ‖ record: %w", k, ErrCorrupt))
		case tx.bucket(bucketGames).Get(k[:8]) == nil && tx.bucket(bucketArchive).Get(k[:8]) == nil:
			errs = append(errs, &GameError{Game: beUint64(k), Err: fmt.Errorf("the log holds records of it (from record %d), but there is no such game: %w", binary.BigEndian.Uint32(k[8:]), ErrCorrupt)})
		}
		if len(k) < 8 || beUint64(k) == ^uint64(0) {
			return errs
		}
		id = beUint64(k) + 1
	}
}

// each calls fn with every entry of bucket b that holds a value (a nested bucket there is
// a problem); an error of the walk itself is added as a problem.
// A damaged page (bbolt panics) ends the walk of that bucket, as a problem of its own.
func each(tx *Tx, b []byte, add func(error), fn func(k, v []byte)) {
	defer func() {
		if r := recover(); r != nil {
			add(fmt.Errorf("store: bucket %s: its pages are damaged (bbolt: %v); the rest of it was not checked: %w", b, r, ErrCorrupt))
		}
	}()
	err := tx.bucket(b).ForEach(func(k, v []byte) error {
		if v == nil {
			add(fmt.Errorf("store: bucket %s holds a bucket %q where values belong: %w", b, k, ErrCorrupt))
			return nil
		}
		fn(bytes.Clone(k), v)
		return nil
	})
	if err != nil {
		add(fmt.Errorf("store: bucket %s: %w", b, err))
	}
}

// nextGameID is the least id of a game (active or archived) greater than id.
func (tx *Tx) nextGameID(id uint64) (uint64, bool) {
	var next uint64
	found := false
	if id == ^uint64(0) {
		return 0, false
	}
	for _, b := range [][]byte{bucketGames, bucketArchive} {
		k, _ := tx.bucket(b).Cursor().Seek(be64(id + 1))
		if len(k) == 8 && (!found || beUint64(k) < next) {
			next, found = beUint64(k), true
		}
	}
	return next, found
}
