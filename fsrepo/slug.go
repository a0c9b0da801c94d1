package fsrepo

import "github.com/skillsync/skillsync/internal/names"

// Slugify is the slug the service would make from a skill name (see
// [names.Slug]). The service's exact rule is not specified, so a folder
// name that differs from Slugify(name) draws only a warning.
func Slugify(name string) string { return names.Slug(name) }

// slugOf reports whether slug is one the service may have made from name
// (see [names.SlugOf]).
func slugOf(slug, name string) bool { return names.SlugOf(slug, name) }
