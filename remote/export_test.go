package remote

// WriteWait is how long a write answered without the skill is read back,
// for the package's external tests.
const WriteWait = writeWait
