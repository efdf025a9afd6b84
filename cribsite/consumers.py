"""A ping socket: answers every message with the same text. Pages and benchmarks use it to
measure the bare WebSocket round trip through the same stack as everything else."""

from channels.generic.websocket import AsyncWebsocketConsumer

MAX_PING_BYTES = 256


class PingConsumer(AsyncWebsocketConsumer):
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        if text_data is not None and len(text_data) <= MAX_PING_BYTES:
            await self.send(text_data=text_data)
