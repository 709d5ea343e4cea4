package api

import "time"

// SetUploadPace sets the upload read time's base and minimum rate for a
// test, and returns the function that restores them.
func SetUploadPace(base time.Duration, bytesPerSecond int64) (restore func()) {
	oldBase, oldRate := uploadReadBase, uploadMinRate
	uploadReadBase, uploadMinRate = base, bytesPerSecond
	return func() { uploadReadBase, uploadMinRate = oldBase, oldRate }
}
