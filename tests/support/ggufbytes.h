#pragma once

#include <QByteArray>
#include <QtEndian>

// GGUF files written byte by byte, for headers that no converter would make.
namespace Sandpiper::Test::GgufBytes {

template<typename T> QByteArray little(T value)
{
    QByteArray bytes(sizeof(T), '\0');
    qToLittleEndian(value, bytes.data());
    return bytes;
}

inline QByteArray string(const QByteArray &text)
{
    return little<quint64>(quint64(text.size())) + text;
}

// A GGUF v3 header with VALUES (encoded key-value pairs) and TENSORS (encoded tensor infos).
inline QByteArray header(quint64 tensorCount, quint64 valueCount, const QByteArray &values,
                         const QByteArray &tensors = {})
{
    return QByteArray("GGUF") + little<quint32>(3) + little<quint64>(tensorCount) + little<quint64>(valueCount) +
           values + tensors;
}

inline QByteArray stringValue(const QByteArray &key, const QByteArray &text)
{
    return string(key) + little<quint32>(8) + string(text);
}

inline QByteArray uint16Value(const QByteArray &key, quint16 value)
{
    return string(key) + little<quint32>(2) + little<quint16>(value);
}

} // namespace Sandpiper::Test::GgufBytes
