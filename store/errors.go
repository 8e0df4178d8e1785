package store

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error the store returns starts with "store: " and wraps one of these
// where one applies, so callers test with errors.Is.
var (
	// ErrNotFound: no such game, player, token, mail or database.
	ErrNotFound = errors.New("not found")
	// ErrExists: the token, address or destination file is taken.
	ErrExists = errors.New("already exists")
	// ErrDuplicate: the incoming message id was processed before; the mail must not be
	// applied again.
	ErrDuplicate = errors.New("message already processed")
	// ErrConflict: the game value is stale (the log moved on since it was loaded).
	ErrConflict = errors.New("stale game")
	// ErrArchived: the game is in the archive and can no longer change.
	ErrArchived = errors.New("game is archived")
	// ErrInvalid: the caller passed a value the store refuses (nothing was written).
	ErrInvalid = errors.New("invalid value")
	// ErrLocked: another process holds the database.
	ErrLocked = errors.New("database locked")
	// ErrReadOnly: the database (or its file system) cannot be written.
	ErrReadOnly = errors.New("read-only")
	// ErrDiskFull: the disk or quota is full; the transaction was not written.
	ErrDiskFull = errors.New("disk full")
	// ErrTampered: a sealed record failed authentication, or the chain does not verify.
	ErrTampered = errors.New("tampered")
	// ErrCorrupt: a stored value does not decode, or the file fails its consistency check.
	ErrCorrupt = errors.New("corrupt")
	// ErrKey: the key file is missing, malformed, too widely readable, or belongs to
	// another database.
	ErrKey = errors.New("key file")
	// ErrSchema: the database has a schema this program cannot use.
	ErrSchema = errors.New("schema")
)

// GameError is a failure in one game's data: a bbolt panic on a damaged page recovered while
// the transaction worked on that game. It matches the error it wraps (ErrCorrupt).
type GameError struct {
	Game uint64
	Err  error
}

// Error names the game.
func (e *GameError) Error() string { return fmt.Sprintf("store: game %d: %v", e.Game, e.Err) }

// Unwrap gives the cause.
func (e *GameError) Unwrap() error { return e.Err }

// DamagedGame says which game a store error is about when the error means the game's stored
// data is damaged (ErrCorrupt or ErrTampered), and 0 otherwise.
func DamagedGame(err error) uint64 {
	if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTampered) {
		return 0
	}
	var ge *GameError
	if errors.As(err, &ge) {
		return ge.Game
	}
	var ce *ChainError
	if errors.As(err, &ce) {
		return ce.Game
	}
	return 0
}

// ChainError says where a game's hash chain breaks. It matches ErrTampered.
type ChainError struct {
	Game   uint64
	Index  uint32 // position in the log (from 0) where the break shows
	Ply    uint32 // ply of the record found at Index, when HasPly
	HasPly bool   // false when there is no readable record at Index (removed at the end, undecodable)
	Reason string
}

// Error names the game, the record and the ply.
func (e *ChainError) Error() string {
	if e.HasPly {
		return fmt.Sprintf("store: game %d: chain broken at record %d, ply %d: %s", e.Game, e.Index, e.Ply, e.Reason)
	}
	return fmt.Sprintf("store: game %d: chain broken at record %d: %s", e.Game, e.Index, e.Reason)
}

// Is makes errors.Is(err, ErrTampered) true.
func (e *ChainError) Is(target error) bool { return target == ErrTampered }

// gameErr is cause as the error of a game: a *GameError naming it, or a plain store error
// when no game is known (0). A panic is reported so in a transaction (recoverPanic), in a
// Batch function (safeCall) and in a deferred job (runJob).
func gameErr(game uint64, cause error) error {
	if game != 0 {
		return &GameError{Game: game, Err: cause}
	}
	return fmt.Errorf("store: %w", cause)
}
