package remote

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"

	"github.com/skillsync/skillsync/spec"
)

// ListAgents returns one page of the agents of the space visible to the
// caller (draft view), most recently updated first, system agents excluded.
func (c *Client) ListAgents(ctx context.Context, spaceID string, limit, offset int) (*Page[Agent], error) {
	return listPage(ctx, c, "agents", spaceID, limit, offset, agentKey)
}

// StreamAgents returns every agent of the space visible to the caller, as
// [Client.StreamSkills] does for skills.
func (c *Client) StreamAgents(ctx context.Context, spaceID string, o ListOptions) ([]Agent, error) {
	return listAll(ctx, c, "agents", spaceID, agentKey, o)
}

// agentKey is the id and version of an agent, as skillKey of a skill.
func agentKey(a Agent) (id, version string) { return a.ID, a.UpdatedAt }

// PublishAgent copies the agent's draft over its published version and
// returns the agent. Publishing an agent with no unpublished changes is a
// no-op.
func (c *Client) PublishAgent(ctx context.Context, spaceID, agentID string) (*Agent, error) {
	if err := spec.CheckShortSpaceID(spaceID); err != nil {
		return nil, err
	}
	if err := spec.CheckUUID("agentId", agentID); err != nil {
		return nil, err
	}
	a := new(Agent)
	err := c.do(ctx, call{
		method: http.MethodPost,
		path:   spacePath(spaceID, "agents", agentID, "publish"),
		decode: decodeObject(a, func(a *Agent) error { return checkID("agent", a.ID, agentID) }),
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// DeleteAgent deletes the agent, draft and published versions, for good.
// Any 2xx status is success; the body, if any, is ignored. A 404 answering
// a retry is success too: the attempt whose answer was lost deleted it.
func (c *Client) DeleteAgent(ctx context.Context, spaceID, agentID string) error {
	if err := spec.CheckShortSpaceID(spaceID); err != nil {
		return err
	}
	if err := spec.CheckUUID("agentId", agentID); err != nil {
		return err
	}
	return c.do(ctx, call{
		method:      http.MethodDelete,
		path:        spacePath(spaceID, "agents", agentID),
		goneOnRetry: true,
	})
}

// GetAsset returns a knowledge-base asset. The spec does not give the
// record's shape, so [Asset.Raw] holds the body whole and the other fields
// are decoded when present with the expected types.
func (c *Client) GetAsset(ctx context.Context, spaceID, assetID string) (*Asset, error) {
	if err := spec.CheckShortSpaceID(spaceID); err != nil {
		return nil, err
	}
	if err := spec.CheckUUID("assetId", assetID); err != nil {
		return nil, err
	}
	a := new(Asset)
	err := c.do(ctx, call{
		method: http.MethodGet,
		path:   "/api/kb/assets/" + url.PathEscape(spaceID) + "/" + url.PathEscape(assetID),
		decode: func(data []byte) error {
			if err := expectObject(data); err != nil {
				return err
			}
			// Best effort: a field of another type than expected is
			// left zero, and json.Unmarshal fills in the rest anyway.
			var typeErr *json.UnmarshalTypeError
			if err := json.Unmarshal(data, a); err != nil && !errors.As(err, &typeErr) {
				return describeJSONError(err)
			}
			a.Raw = json.RawMessage(append([]byte(nil), data...))
			return nil
		},
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}
