"""The headless host: asyncio, MQTT, rooms, persistence and timers."""
