package fsrepo

import "github.com/skillsync/skillsync/internal/names"

// Slugify is the slug the service would make from a skill name (see
// [names.Slug]). The service's exact rule is not specified, so a folder
// name that differs from Slugify(name) draws only a warning.
func Slugify(name string) string { return names.Slug(name) }
