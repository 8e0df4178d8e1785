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
