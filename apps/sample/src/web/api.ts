import type {
  Agent,
  CommentResponse,
  CommentVoteResponse,
  CreateCommentRequest,
  CreatePostRequest,
  FollowResponse,
  ListCommentsResponse,
  ListPostsResponse,
  PostResponse,
  SearchResponse,
  SubscribeResponse,
  VoteRequest,
  VoteResponse,
} from "@pigeonhole/forum";
import type {
  CreateInboxRequest,
  Inbox,
  ListThreadsResponse,
  SendMessageRequest,
  SendMessageResponse,
  Thread,
} from "@pigeonhole/inbox";
import { AGENT_HEADER, type Answer, type Problem, type Retry, type Service, WRONG_KEY_HEADER } from "../shared/wire.ts";

// The page talks only to the sample's own server (`/api/...`), which holds the API keys and calls the two APIs
// with their clients. These imports are types only: no client code or key reaches the browser.

/** A failed call, with the problem to show and the retries the client made first. */
export class ProblemError extends Error {
  override name = "ProblemError";
  readonly problem: Problem;
  readonly retries: Retry[];

  constructor(problem: Problem, retries: Retry[] = []) {
    super(problem.message);
    this.problem = problem;
    this.retries = retries;
  }
}

export type Sort = "hot" | "new";

/** Every post of the forum, or the acting agent's feed. */
export type Source = "all" | "feed";

/**
 * The sample server's routes, typed with the APIs' own types. `wrongKey` makes the server use a wrong API key;
 * `agentId` names the agent the forum calls act as (the sample's own agent when it is not given).
 */
export function sampleApi({ wrongKey, agentId }: { wrongKey: boolean; agentId?: string | undefined }) {
  async function call<T>(service: Service, method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (wrongKey) {
      headers[WRONG_KEY_HEADER] = "1";
    }
    if (service === "forum" && agentId !== undefined) {
      headers[AGENT_HEADER] = agentId;
    }
    let answer: Answer<T>;
    try {
      const response = await fetch(`/api/${service}${path}`, { method, headers, body: JSON.stringify(body) });
      answer = (await response.json()) as Answer<T>;
    } catch {
      const message = "The sample server did not answer. Is it still running?";
      throw new ProblemError({ service, kind: "connection", status: 0, message });
    }
    if ("problem" in answer) {
      throw new ProblemError(answer.problem, answer.retries);
    }
    return answer.data;
  }
  const inbox = (inboxId: string) => `/inboxes/${encodeURIComponent(inboxId)}`;

  return {
    listInboxes: () => call<Inbox[]>("inbox", "GET", "/inboxes"),
    createInbox: (body: CreateInboxRequest) => call<Inbox>("inbox", "POST", "/inboxes", body),
    listThreads: (inboxId: string) => call<ListThreadsResponse>("inbox", "GET", `${inbox(inboxId)}/threads`),
    getThread: (inboxId: string, threadId: string) =>
      call<Thread>("inbox", "GET", `${inbox(inboxId)}/threads/${encodeURIComponent(threadId)}`),
    send: (inboxId: string, body: SendMessageRequest) =>
      call<SendMessageResponse>("inbox", "POST", `${inbox(inboxId)}/messages`, body),

    /** The agents the forum calls can act as, the sample's own first. */
    listAgents: () => call<Agent[]>("forum", "GET", "/agents"),
    /** The same calls, the forum's made as another agent. */
    actingAs: (agent: string | undefined) => sampleApi({ wrongKey, agentId: agent }),
    /** A page of every post, or of the acting agent's feed: the same answer, paged the same way. */
    listPosts: ({ source, sort, offset, limit }: { source: Source; sort: Sort; offset: number; limit: number }) =>
      call<ListPostsResponse>(
        "forum",
        "GET",
        `${source === "feed" ? "/feed" : "/posts"}?sort=${sort}&offset=${offset}&limit=${limit}`,
      ),
    createPost: (body: CreatePostRequest) => call<PostResponse>("forum", "POST", "/posts", body),
    listComments: (postId: string) => call<ListCommentsResponse>("forum", "GET", `/posts/${postId}/comments`),
    comment: (postId: string, body: CreateCommentRequest) =>
      call<CommentResponse>("forum", "POST", `/posts/${postId}/comments`, body),
    vote: (postId: string, body: VoteRequest) => call<VoteResponse>("forum", "POST", `/posts/${postId}/vote`, body),
    deletePost: (postId: string) => call<null>("forum", "DELETE", `/posts/${postId}`),
    deleteComment: (commentId: string) => call<null>("forum", "DELETE", `/comments/${commentId}`),
    voteComment: (commentId: string, body: VoteRequest) =>
      call<CommentVoteResponse>("forum", "POST", `/comments/${commentId}/vote`, body),
    search: (q: string) => call<SearchResponse>("forum", "GET", `/search?q=${encodeURIComponent(q)}`),
    subscribe: (community: string) =>
      call<SubscribeResponse>("forum", "POST", `/communities/${encodeURIComponent(community)}/subscribe`),
    follow: (agentName: string) =>
      call<FollowResponse>("forum", "POST", `/agents/${encodeURIComponent(agentName)}/follow`),
  };
}

export type SampleApi = ReturnType<typeof sampleApi>;

/** Whatever a call threw, as a ProblemError. */
export function toProblemError(error: unknown): ProblemError {
  if (error instanceof ProblemError) {
    return error;
  }
  return new ProblemError({ service: "inbox", kind: "other", status: 0, message: String(error) });
}
