"""The candidate contract's fixture tools on the official `mcp` Python SDK (docs/contract.md).

One process serves both transports from one `MCPServer`:

- streamable HTTP at `/mcp`: `StreamableHTTPSessionManager(event_store=..., stateless=False)`, the
  SDK's stateful sessions, resumable through `InMemoryEventStore` below;
- legacy HTTP+SSE at `/sse` (GET) and `/messages` (POST): the SDK's `SseServerTransport`.

Usage: `python server.py [--host 127.0.0.1] [--port 0] [--event-store shared|per-session]`. Once
listening it prints one line, `http://HOST:PORT/mcp` (the URL `mcp-resume-spec check --url` takes),
and serves until killed. What the checker finds, with either store: docs/contract.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import socket
import sys
from typing import Annotated, Any

import uvicorn
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.sse import SseServerTransport
from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp_types import EmptyResult, JSONRPCMessage, SetLevelRequestParams, TextContent
from pydantic import Field
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

MAX_EMIT_COUNT = 1000


class InMemoryEventStore(EventStore):
    """Events kept per stream, in the order they were stored; replay is exclusive of the cursor.

    Event IDs come from one counter per process, shared by every store, so they are unique (also
    across the stores of `--event-store per-session`: one session's cursor never names an event in
    another's store) and say nothing about time: two events of the same millisecond keep their
    order. A cursor the store does not know (never issued, or garbage) is answered with `None`, and
    the SDK then replays nothing. Unbounded: an example, not a production store (bound it by count
    or age, and answer a trimmed cursor `None` too).
    """

    _ids = itertools.count(1)

    def __init__(self) -> None:
        self._streams: dict[StreamId, list[tuple[EventId, JSONRPCMessage | None]]] = {}
        self._stream_of: dict[EventId, StreamId] = {}

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        event_id = str(next(self._ids))
        self._streams.setdefault(stream_id, []).append((event_id, message))
        self._stream_of[event_id] = stream_id
        return event_id

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        stream_id = self._stream_of.get(last_event_id)
        if stream_id is None:
            return None
        events = self._streams[stream_id]
        position = next(i for i, (event_id, _) in enumerate(events) if event_id == last_event_id) + 1
        # Walks the live list, not a copy: an event stored while the replay is being sent is sent too.
        while position < len(events):
            event_id, message = events[position]
            position += 1
            # Priming events (no message) only mark a position; there is nothing to resend.
            if message is not None:
                await send_callback(EventMessage(message, event_id))
        return stream_id


# Per process, across sessions and both transports; `emit` and `emit_unsolicited` count apart.
executions: dict[tuple[str, str], int] = {}


def count_execution(tool: str, label: str) -> int:
    """Counts one run of `tool` with `label` when the handler starts; returns the new count."""
    executions[(tool, label)] = executions.get((tool, label), 0) + 1
    return executions[(tool, label)]


def emit_result(label: str, runs: int) -> list[TextContent]:
    return [TextContent(type="text", text=json.dumps({"label": label, "executions": runs}, separators=(",", ":")))]


mcp = MCPServer("mcp-resume-spec-python-fixtures", version="0.1.0")

Label = Annotated[str, Field(description="Tag carried by every notification and the result")]
Count = Annotated[int, Field(ge=0, le=MAX_EMIT_COUNT, description="How many notifications to send")]


@mcp.tool(
    description="Sends `count` logging notifications related to this request, then returns how often it ran with `label`."
)
async def emit(label: Label, count: Count, ctx: Context) -> list[TextContent]:
    runs = count_execution("emit", label)
    for seq in range(1, count + 1):
        # related_request_id routes the notification onto this request's own POST stream.
        await ctx.session.send_log_message(level="info", data={"label": label, "seq": seq}, related_request_id=ctx.request_id)
    return emit_result(label, runs)


@mcp.tool(
    description="Sends `count` logging notifications not related to any request (the standalone GET stream), then returns how often it ran with `label`."
)
async def emit_unsolicited(label: Label, count: Count, ctx: Context) -> list[TextContent]:
    runs = count_execution("emit_unsolicited", label)
    for seq in range(1, count + 1):
        # No related request: streamable HTTP sends it on the standalone GET stream (stored for replay).
        await ctx.session.send_log_message(level="info", data={"label": label, "seq": seq})
    return emit_result(label, runs)


@mcp.tool(description="Returns the protocol version and client capabilities this session was initialized with.")
async def session_info(ctx: Context) -> list[TextContent]:
    capabilities = ctx.client_capabilities
    declared = capabilities.model_dump(by_alias=True, exclude_unset=True) if capabilities is not None else None
    text = json.dumps({"protocolVersion": ctx.protocol_version, "clientCapabilities": declared}, separators=(",", ":"))
    return [TextContent(type="text", text=text)]


async def set_logging_level(ctx: Any, params: SetLevelRequestParams) -> EmptyResult:
    # Every fixture notification is sent at `info`; the level is accepted and not applied.
    return EmptyResult()


# A `logging/setLevel` handler is what makes the SDK declare the `logging` capability, which a
# server that sends `notifications/message` declares.
mcp._lowlevel_server.add_request_handler("logging/setLevel", SetLevelRequestParams, set_logging_level)


class PerSessionStores(StreamableHTTPSessionManager):
    """The manager with one `InMemoryEventStore` per session instead of one for all.

    The SDK hands its one `event_store` to every session's transport, and names a POST stream by
    its JSON-RPC request ID and the standalone stream `_GET_stream` in every session, so a shared
    store cannot tell one session's stream "2" from another's. The manager has no public hook for a
    store per session: this overrides its private `_admit_session` and sets the transport's private
    `_event_store`, and may break with any SDK release. `--event-store per-session` selects it.
    """

    def _admit_session(self, requestor: Any) -> Any:
        transport = super()._admit_session(requestor)
        if transport is not None:
            transport._event_store = InMemoryEventStore()
        return transport


def build_app(event_store: str = "shared") -> Any:
    """The ASGI app: `/mcp` streamable HTTP, `/sse` + `/messages` legacy HTTP+SSE, 404 elsewhere."""
    lowlevel = mcp._lowlevel_server  # MCPServer's own helpers wrap one transport per app; both are wanted here
    if event_store == "per-session":
        manager: StreamableHTTPSessionManager = PerSessionStores(app=lowlevel, event_store=InMemoryEventStore(), stateless=False)
    else:
        # The SDK's documented wiring: one store for the manager, shared by every session.
        manager = StreamableHTTPSessionManager(app=lowlevel, event_store=InMemoryEventStore(), stateless=False)
    legacy = SseServerTransport("/messages")

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            async with manager.run():
                message = await receive()
                assert message["type"] == "lifespan.startup"
                await send({"type": "lifespan.startup.complete"})
                message = await receive()
                await send({"type": "lifespan.shutdown.complete"})
            return
        path = scope.get("path", "")
        if path == "/mcp":
            await manager.handle_request(scope, receive, send)
        elif path == "/sse" and scope["method"] == "GET":
            async with legacy.connect_sse(scope, receive, send) as (read_stream, write_stream):
                await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
        elif path == "/messages":
            await legacy.handle_post_message(scope, receive, send)
        else:
            await Response("Not Found", status_code=404)(scope, receive, send)

    return app


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument(
        "--event-store",
        choices=["shared", "per-session"],
        default="shared",
        help="shared: one store for all sessions, as the SDK wires it (default); per-session: one per session (see PerSessionStores)",
    )
    args = parser.parse_args()
    # Bind first, so port 0 is resolved before uvicorn starts and the URL can be printed.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))
    host, port = sock.getsockname()[:2]
    server = uvicorn.Server(uvicorn.Config(build_app(args.event_store), log_level="warning", lifespan="on"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started and not task.done():
        await asyncio.sleep(0.01)
    if server.started:
        print(f"http://{host}:{port}/mcp", flush=True)
    await task


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
    sys.exit(0)
