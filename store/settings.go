package store

import "fmt"

// maxSetting bounds a setting's size: settings are small service values
// (a heartbeat, the outage list, the digest schedule), never game data.
const maxSetting = 4 << 20

// Setting returns the value stored under name, or nil when there is none.
// The game service keeps its own small values here (versioned by itself).
func (tx *Tx) Setting(name string) ([]byte, error) {
	v := tx.bucket(bucketSettings).Get([]byte(name))
	if v == nil {
		return nil, nil
	}
	return append([]byte(nil), v...), nil
}

// PutSetting stores value under name; a nil value deletes it.
func (tx *Tx) PutSetting(name string, value []byte) error {
	if name == "" {
		return fmt.Errorf("store: a setting needs a name: %w", ErrInvalid)
	}
	if len(value) > maxSetting {
		return fmt.Errorf("store: setting %q is %d bytes, more than %d: %w", name, len(value), maxSetting, ErrInvalid)
	}
	b := tx.bucket(bucketSettings)
	if value == nil {
		return tx.del(b, []byte(name))
	}
	return tx.put(b, []byte(name), value)
}

// DeleteSettings deletes the settings whose names sort in [from, to) and
// returns how many there were: the game service keeps short-lived values
// under names that start with their day, and forgets old days with one
// call.
func (tx *Tx) DeleteSettings(from, to string) (int, error) {
	if from == "" || to <= from {
		return 0, fmt.Errorf("store: settings range [%q, %q) is empty: %w", from, to, ErrInvalid)
	}
	c := tx.bucket(bucketSettings).Cursor()
	var keys [][]byte
	for k, _ := c.Seek([]byte(from)); k != nil && string(k) < to; k, _ = c.Next() {
		keys = append(keys, append([]byte(nil), k...))
	}
	for _, k := range keys {
		if err := tx.del(tx.bucket(bucketSettings), k); err != nil {
			return 0, err
		}
	}
	return len(keys), nil
}

// EachSetting calls fn with the name and value of every setting, in name order, until fn
// returns an error, which it returns: for a check of every value the game service keeps
// here (game.Check).
func (tx *Tx) EachSetting(fn func(name string, value []byte) error) error {
	return tx.bucket(bucketSettings).ForEach(func(k, v []byte) error {
		if v == nil {
			return nil // a nested bucket: Verify names it
		}
		return fn(string(k), append([]byte(nil), v...))
	})
}
