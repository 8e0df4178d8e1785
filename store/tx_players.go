package store

// Players, found by id or address, and the reply tokens that stand for their seats.

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/mailfmt"
)

// PutPlayer stores a player, assigning p.ID when it is zero, and keeps the player deadline
// index in step with p.Due. The address must be unique (ErrExists otherwise).
func (tx *Tx) PutPlayer(p *Player) error {
	addr := mailfmt.Key(p.Address)
	if addr == "" {
		return fmt.Errorf("store: player %q: address %q is not a mail address: %w", p.Name, p.Address, ErrInvalid)
	}
	if !p.Due.IsZero() {
		if err := validDeadline(Deadline{At: p.Due}); err != nil {
			return fmt.Errorf("store: player %q: %w", p.Address, err)
		}
	}
	players, addrs := tx.bucket(bucketPlayers), tx.bucket(bucketAddresses)
	var oldDue time.Time
	if v := addrs.Get([]byte(addr)); v != nil && (len(v) != 8 || beUint64(v) != p.ID) {
		return fmt.Errorf("store: address %s belongs to another player: %w", p.Address, ErrExists)
	}
	if p.ID == 0 {
		id, err := tx.nextID(players)
		if err != nil {
			return err
		}
		p.ID = id
	} else if old, err := tx.Player(p.ID); err == nil {
		oldDue = old.Due
		if oldAddr := mailfmt.Key(old.Address); oldAddr != addr {
			if err := tx.del(addrs, []byte(oldAddr)); err != nil {
				return err
			}
		}
	} else if !errors.Is(err, ErrNotFound) {
		return err
	} else if p.ID > players.Sequence() {
		return fmt.Errorf("store: player %d was never assigned: %w", p.ID, ErrInvalid)
	}
	if err := tx.put(players, be64(p.ID), encodePlayer(p)); err != nil {
		return err
	}
	if err := tx.indexPlayerDue(p.ID, oldDue, p.Due); err != nil {
		return err
	}
	return tx.put(addrs, []byte(addr), be64(p.ID))
}

// Player loads a player by id.
func (tx *Tx) Player(id uint64) (*Player, error) {
	v := tx.bucket(bucketPlayers).Get(be64(id))
	if v == nil {
		return nil, fmt.Errorf("store: player %d: %w", id, ErrNotFound)
	}
	p, err := decodePlayer(v)
	if err != nil {
		return nil, fmt.Errorf("store: player %d: %w", id, err)
	}
	return p, nil
}

// PlayerByAddress finds the player with a mail address: the address index
// is keyed by mailfmt.Key, the one identity of an address.
func (tx *Tx) PlayerByAddress(addr string) (*Player, error) {
	v := tx.bucket(bucketAddresses).Get([]byte(mailfmt.Key(addr)))
	if len(v) != 8 {
		return nil, fmt.Errorf("store: no player has the address %s: %w", addr, ErrNotFound)
	}
	return tx.Player(beUint64(v))
}

func normToken(t string) string { return strings.ToLower(strings.TrimSpace(t)) }

// PutToken stores a reply token for a player's seat in a game. The seat must be the
// player's; a token already standing for another seat gives ErrExists. Only a keyed hash
// of the token is stored (tokenHash), never the token: a copy of the database without the
// key file does not let anyone act for a player.
func (tx *Tx) PutToken(token string, ref TokenRef) error {
	t := normToken(token)
	if t == "" || len(t) > 128 {
		return fmt.Errorf("store: token %q: empty or longer than 128 bytes: %w", token, ErrInvalid)
	}
	g, err := tx.rawGame(ref.Game)
	if err != nil {
		return err
	}
	if !ref.Side.valid() || g.Seats[ref.Side].Player != ref.Player {
		return fmt.Errorf("store: token for player %d as %s in game %d: not that player's seat: %w", ref.Player, ref.Side, ref.Game, ErrInvalid)
	}
	b := tx.bucket(bucketTokens)
	key := tx.s.vault.tokenHash(t)
	if v := b.Get(key); v != nil {
		if old, err := decodeToken(v); err == nil && *old == ref {
			return nil
		}
		return fmt.Errorf("store: the token is taken: %w", ErrExists)
	}
	return tx.put(b, key, encodeToken(&ref))
}

// TokenLookup finds the seat a reply token stands for (compared case-insensitively).
func (tx *Tx) TokenLookup(token string) (TokenRef, error) {
	v := tx.bucket(bucketTokens).Get(tx.s.vault.tokenHash(normToken(token)))
	if v == nil {
		return TokenRef{}, fmt.Errorf("store: token %q: %w", token, ErrNotFound)
	}
	ref, err := decodeToken(v)
	if err != nil {
		return TokenRef{}, err
	}
	return *ref, nil
}
