package github

import (
	"context"
	"net/http"
)

// NewClientWithLimits is NewClient with a limit on answers of maxBody
// bytes instead of MaxResponseBytes and on lists of maxPages pages
// instead of MaxPages, so that tests of the limits stay small and fast.
func NewClientWithLimits(ctx context.Context, env Env, httpClient *http.Client, maxBody int64, maxPages int) (*Client, error) {
	return newClient(ctx, env, httpClient, maxBody, maxPages)
}
