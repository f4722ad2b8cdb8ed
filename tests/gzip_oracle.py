"""An oracle for damaged gzip files, independent of the platform's reader (shared by the damage tests)."""

import zlib


def decodable_prefix(data: bytes) -> bytes:
    """What stdlib zlib decodes of a damaged gzip, one byte at a time, before the damage stops it."""
    decoder, out = zlib.decompressobj(wbits=31), []
    for i in range(len(data)):
        try:
            out.append(decoder.decompress(data[i : i + 1]))
        except zlib.error:
            break
    return b"".join(out)
