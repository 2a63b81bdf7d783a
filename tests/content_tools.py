"""Tools that return each kind of rich content, shared by the content tests."""

from __future__ import annotations

import struct

from standard_tool import standard_tool
from standard_tool.content import (
    Audio,
    EmbeddedResource,
    Image,
    ResourceLink,
    Text,
    ToolOutput,
)

#: A 1x1 red PNG.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8cfc0f01f0005000201e5270bde0000000049454e44ae426082"
)
#: An empty 8 kHz mono 16-bit WAV file (its 44-byte header).
WAV = (
    b"RIFF"
    + struct.pack("<I", 36)
    + b"WAVEfmt "
    + struct.pack("<IHHIIHH", 16, 1, 1, 8000, 16000, 2, 16)
    + b"data"
    + struct.pack("<I", 0)
)
PDF = b"%PDF-1.4\n%rich\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"

IMAGE = Image(PNG, "image/png")
AUDIO = Audio(WAV, "audio/wav")
LINK = ResourceLink("file:///reports/q3.pdf", "q3.pdf", "application/pdf", size=len(PDF))
TEXT_RESOURCE = EmbeddedResource("test://notes.txt", text="some notes", mime_type="text/plain")
PDF_RESOURCE = EmbeddedResource("test://report.pdf", blob=PDF, mime_type="application/pdf")

image_tool = standard_tool(
    name="show_image", description="Return an image.", execute=lambda: ToolOutput([IMAGE])
)
audio_tool = standard_tool(name="play_audio", description="Return audio.", execute=lambda: AUDIO)
link_tool = standard_tool(
    name="link_file", description="Return a resource link.", execute=lambda: [Text("see"), LINK]
)
resource_tool = standard_tool(
    name="embed_resources",
    description="Return embedded resources.",
    execute=lambda: ToolOutput([TEXT_RESOURCE, PDF_RESOURCE]),
)
mixed_tool = standard_tool(
    name="chart",
    description="Return a chart with its data.",
    execute=lambda: ToolOutput([Text("A red dot:"), IMAGE], structured={"points": 1}),
)

ALL = [image_tool, audio_tool, link_tool, resource_tool, mixed_tool]
