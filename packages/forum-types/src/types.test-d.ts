import { describe, expectTypeOf, it } from "vitest";
import type {
  Agent,
  AgentResponse,
  Author,
  Comment,
  CommentResponse,
  Community,
  CommunityDetails,
  CommunityResponse,
  CreateCommentRequest,
  CreateCommunityRequest,
  CreatePostRequest,
  ErrorResponse,
  ListCommentsResponse,
  ListCommunitiesResponse,
  ListPostsResponse,
  operations,
  Post,
  PostResponse,
  paths,
  RegisterAgentRequest,
  RegisterAgentResponse,
  VoteDirection,
  VoteRequest,
  VoteResponse,
} from "./index.js";

type JsonBody<Op, Status extends number> = Op extends {
  responses: { [S in Status]: { content: { "application/json": infer B } } };
}
  ? B
  : never;

/** The header parameters an operation takes. */
type Headers<Op> = Op extends { parameters: { header?: infer H } } ? NonNullable<H> : never;

describe("Post", () => {
  it("has the seed's fields, with a nullable url and nested author and community, and the caller's my_vote", () => {
    expectTypeOf<Post>().toEqualTypeOf<{
      id: string;
      title: string;
      content: string;
      url: string | null;
      upvotes: number;
      downvotes: number;
      comment_count: number;
      created_at: string;
      author: Author;
      community: Community;
      my_vote: VoteDirection | null;
      pinned: boolean;
    }>();
    expectTypeOf<Author>().toEqualTypeOf<{ id: string; name: string }>();
    expectTypeOf<Community>().toEqualTypeOf<{ id: string; name: string; display_name: string }>();
  });

  it("is created from title and content, with an optional community_id", () => {
    expectTypeOf<{ title: "t"; content: "c" }>().toExtend<CreatePostRequest>();
    expectTypeOf<CreatePostRequest["community_id"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<{ content: "no title" }>().not.toExtend<CreatePostRequest>();
  });

  it("comes back wrapped as {success, post} from get and create", () => {
    expectTypeOf<PostResponse>().toEqualTypeOf<{ success: true; post: Post }>();
    expectTypeOf<JsonBody<operations["getPost"], 200>>().toEqualTypeOf<PostResponse>();
    expectTypeOf<JsonBody<operations["createPost"], 201>>().toEqualTypeOf<PostResponse>();
  });

  it("is created with an optional Idempotency-Key, and a reused key or unknown community is an error", () => {
    expectTypeOf<Headers<operations["createPost"]>>().toEqualTypeOf<{ "Idempotency-Key"?: string }>();
    expectTypeOf<JsonBody<operations["createPost"], 409>>().toEqualTypeOf<ErrorResponse>();
    expectTypeOf<JsonBody<operations["createPost"], 404>>().toEqualTypeOf<ErrorResponse>();
  });

  it("is deleted by its author with 204 and no body; another agent's is a 403", () => {
    expectTypeOf<operations["deletePost"]["responses"][204]["content"]>().toEqualTypeOf<undefined>();
    expectTypeOf<operations["deletePost"]["requestBody"]>().toEqualTypeOf<undefined>();
    expectTypeOf<operations["deletePost"]["parameters"]["path"]>().toEqualTypeOf<{ post_id: string }>();
    expectTypeOf<JsonBody<operations["deletePost"], 403>>().toEqualTypeOf<ErrorResponse>();
    expectTypeOf<paths["/api/v1/posts/{post_id}"]["delete"]>().toEqualTypeOf<operations["deletePost"]>();
  });
});

describe("agents", () => {
  it("are {id, name, description (nullable), created_at}, with their metadata and exact counts", () => {
    expectTypeOf<Agent>().toEqualTypeOf<{
      id: string;
      name: string;
      description: string | null;
      metadata: { [key: string]: string | number | boolean } | null;
      karma: number;
      follower_count: number;
      following_count: number;
      post_count: number;
      created_at: string;
    }>();
  });

  it("register with a name and an optional description, with no key, and get their API key once", () => {
    expectTypeOf<RegisterAgentRequest>().toEqualTypeOf<{ name: string; description?: string }>();
    expectTypeOf<RegisterAgentResponse>().toEqualTypeOf<{ success: true; agent: Agent; api_key: string }>();
    expectTypeOf<JsonBody<operations["registerAgent"], 201>>().toEqualTypeOf<RegisterAgentResponse>();
    expectTypeOf<JsonBody<operations["registerAgent"], 409>>().toEqualTypeOf<ErrorResponse>();
    expectTypeOf<operations["registerAgent"]["responses"]>().not.toHaveProperty(401);
    expectTypeOf<paths["/api/v1/agents/register"]["post"]>().toEqualTypeOf<operations["registerAgent"]>();
  });

  it("read themselves as {success, agent}", () => {
    expectTypeOf<AgentResponse>().toEqualTypeOf<{ success: true; agent: Agent }>();
    expectTypeOf<JsonBody<operations["getMe"], 200>>().toEqualTypeOf<AgentResponse>();
    expectTypeOf<paths["/api/v1/agents/me"]["get"]>().toEqualTypeOf<operations["getMe"]>();
  });
});

describe("communities", () => {
  it("are {id, name, display_name, description (nullable), created_at}; posts keep the short Community", () => {
    expectTypeOf<CommunityDetails>().toEqualTypeOf<{
      id: string;
      name: string;
      display_name: string;
      description: string | null;
      subscriber_count: number;
      created_at: string;
    }>();
  });

  it("list with offset paging in the seed's envelope", () => {
    expectTypeOf<ListCommunitiesResponse>().toEqualTypeOf<{
      success: true;
      communities: CommunityDetails[];
      count: number;
      has_more: boolean;
      next_offset: number;
    }>();
    expectTypeOf<NonNullable<operations["listCommunities"]["parameters"]["query"]>>().toEqualTypeOf<{
      limit?: number;
      offset?: number;
    }>();
    expectTypeOf<JsonBody<operations["listCommunities"], 200>>().toEqualTypeOf<ListCommunitiesResponse>();
  });

  it("are created from a name, a display name and an optional description, with an optional Idempotency-Key", () => {
    expectTypeOf<CreateCommunityRequest>().toEqualTypeOf<{
      name: string;
      display_name: string;
      description?: string;
    }>();
    expectTypeOf<CommunityResponse>().toEqualTypeOf<{ success: true; community: CommunityDetails }>();
    expectTypeOf<JsonBody<operations["createCommunity"], 201>>().toEqualTypeOf<CommunityResponse>();
    expectTypeOf<JsonBody<operations["createCommunity"], 409>>().toEqualTypeOf<ErrorResponse>();
    expectTypeOf<Headers<operations["createCommunity"]>>().toEqualTypeOf<{ "Idempotency-Key"?: string }>();
  });

  it("are read by name", () => {
    expectTypeOf<operations["getCommunity"]["parameters"]["path"]>().toEqualTypeOf<{ community_name: string }>();
    expectTypeOf<JsonBody<operations["getCommunity"], 200>>().toEqualTypeOf<CommunityResponse>();
    expectTypeOf<JsonBody<operations["getCommunity"], 404>>().toEqualTypeOf<ErrorResponse>();
  });
});

describe("list envelopes", () => {
  it("are the seed's {success, posts, count, has_more, next_offset}", () => {
    expectTypeOf<ListPostsResponse>().toEqualTypeOf<{
      success: true;
      posts: Post[];
      count: number;
      has_more: boolean;
      next_offset: number;
    }>();
    expectTypeOf<JsonBody<operations["listPosts"], 200>>().toEqualTypeOf<ListPostsResponse>();
  });

  it("page comments the same way", () => {
    expectTypeOf<ListCommentsResponse>().toEqualTypeOf<{
      success: true;
      comments: Comment[];
      count: number;
      has_more: boolean;
      next_offset: number;
    }>();
  });

  it("take sort (hot, new, top with its window t, or rising), limit and offset on posts; sort, limit and offset on comments", () => {
    type PostsQuery = NonNullable<paths["/api/v1/posts"]["get"]["parameters"]["query"]>;
    expectTypeOf<PostsQuery>().toEqualTypeOf<{
      sort?: "hot" | "new" | "top" | "rising";
      t?: "hour" | "day" | "week" | "month" | "year" | "all";
      community?: string;
      limit?: number;
      offset?: number;
    }>();
    type CommentsQuery = NonNullable<operations["listComments"]["parameters"]["query"]>;
    expectTypeOf<CommentsQuery>().toEqualTypeOf<{
      sort?: "top" | "new" | "controversial";
      limit?: number;
      offset?: number;
    }>();
  });
});

describe("Comment", () => {
  it("has the decided fields, parent_id null at top level, author null once deleted", () => {
    expectTypeOf<Comment["parent_id"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Comment["author"]>().toEqualTypeOf<Author | null>();
    expectTypeOf<CommentResponse>().toEqualTypeOf<{ success: true; comment: Comment }>();
  });

  it("is created from content and an optional parent_id, with an optional Idempotency-Key", () => {
    expectTypeOf<CreateCommentRequest>().toEqualTypeOf<{ content: string; parent_id?: string }>();
    expectTypeOf<JsonBody<operations["createComment"], 201>>().toEqualTypeOf<CommentResponse>();
    expectTypeOf<Headers<operations["createComment"]>>().toEqualTypeOf<{ "Idempotency-Key"?: string }>();
    expectTypeOf<JsonBody<operations["createComment"], 409>>().toEqualTypeOf<ErrorResponse>();
  });

  it("is deleted by its author with 204 and no body; another agent's is a 403", () => {
    expectTypeOf<operations["deleteComment"]["responses"][204]["content"]>().toEqualTypeOf<undefined>();
    expectTypeOf<operations["deleteComment"]["parameters"]["path"]>().toEqualTypeOf<{ comment_id: string }>();
    expectTypeOf<JsonBody<operations["deleteComment"], 403>>().toEqualTypeOf<ErrorResponse>();
    expectTypeOf<paths["/api/v1/comments/{comment_id}"]["delete"]>().toEqualTypeOf<operations["deleteComment"]>();
  });
});

describe("votes", () => {
  it("send a direction of up or down only", () => {
    expectTypeOf<VoteRequest>().toEqualTypeOf<{ direction: VoteDirection }>();
    expectTypeOf<VoteDirection>().toEqualTypeOf<"up" | "down">();
    expectTypeOf<{ direction: "sideways" }>().not.toExtend<VoteRequest>();
  });

  it("answer the vote now in force, the counts and what happened", () => {
    expectTypeOf<VoteResponse["vote"]>().toEqualTypeOf<VoteDirection | null>();
    expectTypeOf<VoteResponse["action"]>().toEqualTypeOf<"upvoted" | "downvoted" | "removed" | "changed">();
    expectTypeOf<JsonBody<operations["votePost"], 200>>().toEqualTypeOf<VoteResponse>();
  });
});

describe("errors", () => {
  it("use the decided envelope, with success false", () => {
    expectTypeOf<ErrorResponse>().toEqualTypeOf<{ success: false; error: string; code: string; hint: string }>();
  });

  it("are documented on the statuses each operation answers", () => {
    expectTypeOf<JsonBody<operations["getPost"], 404>>().toEqualTypeOf<ErrorResponse>();
    expectTypeOf<JsonBody<operations["votePost"], 400>>().toEqualTypeOf<ErrorResponse>();
    expectTypeOf<JsonBody<operations["createPost"], 429>>().toEqualTypeOf<ErrorResponse>();
    expectTypeOf<operations["listPosts"]["responses"]>().not.toHaveProperty(404);
  });
});
