import { describe, expectTypeOf, it } from "vitest";
import type {
  Author,
  Comment,
  CommentResponse,
  Community,
  CreateCommentRequest,
  CreatePostRequest,
  ErrorResponse,
  ListCommentsResponse,
  ListPostsResponse,
  operations,
  Post,
  PostResponse,
  paths,
  VoteDirection,
  VoteRequest,
  VoteResponse,
} from "./index.js";

type JsonBody<Op, Status extends number> = Op extends {
  responses: { [S in Status]: { content: { "application/json": infer B } } };
}
  ? B
  : never;

describe("Post", () => {
  it("has the seed's fields, with a nullable url and nested author and community", () => {
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

  it("take sort (hot or new), limit and offset on posts, limit and offset on comments", () => {
    type PostsQuery = NonNullable<paths["/api/v1/posts"]["get"]["parameters"]["query"]>;
    expectTypeOf<PostsQuery>().toEqualTypeOf<{ sort?: "hot" | "new"; limit?: number; offset?: number }>();
    type CommentsQuery = NonNullable<operations["listComments"]["parameters"]["query"]>;
    expectTypeOf<CommentsQuery>().toEqualTypeOf<{ limit?: number; offset?: number }>();
  });
});

describe("Comment", () => {
  it("has the decided fields, parent_id null at top level", () => {
    expectTypeOf<Comment["parent_id"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Comment["author"]>().toEqualTypeOf<Author>();
    expectTypeOf<CommentResponse>().toEqualTypeOf<{ success: true; comment: Comment }>();
  });

  it("is created from content and an optional parent_id", () => {
    expectTypeOf<CreateCommentRequest>().toEqualTypeOf<{ content: string; parent_id?: string }>();
    expectTypeOf<JsonBody<operations["createComment"], 201>>().toEqualTypeOf<CommentResponse>();
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
