#include "sandbox/tarwriter.h"

namespace Sandpiper {

namespace {

constexpr qsizetype blockSize = 512;

void putOctal(QByteArray &block, int offset, int length, qint64 value)
{
    const QByteArray digits = QByteArray::number(value, 8).rightJustified(length - 1, '0');
    block.replace(offset, length - 1, digits.right(length - 1));
}

QByteArray header(const QByteArray &name, qint64 size, qint64 mtimeSeconds, char type)
{
    QByteArray block(blockSize, '\0');
    block.replace(0, std::min<qsizetype>(name.size(), 100), name.left(100));
    putOctal(block, 100, 8, 0644);
    putOctal(block, 108, 8, 0);
    putOctal(block, 116, 8, 0);
    if (size < 077777777777LL) {
        putOctal(block, 124, 12, size);
    } else { // GNU base-256 (pax carries the exact size as well)
        block[124] = char(0x80);
        for (int i = 0; i < 8; ++i)
            block[135 - i] = char((size >> (8 * i)) & 0xff);
    }
    putOctal(block, 136, 12, std::max<qint64>(0, mtimeSeconds));
    block[156] = type;
    block.replace(257, 6, QByteArray("ustar\0", 6));
    block.replace(263, 2, "00");
    block.replace(148, 8, QByteArray(8, ' '));
    qint64 sum = 0;
    for (const char c : std::as_const(block))
        sum += static_cast<unsigned char>(c);
    block.replace(148, 7, QByteArray(QByteArray::number(sum, 8).rightJustified(6, '0') + '\0'));
    return block;
}

QByteArray paxRecord(const QByteArray &key, const QByteArray &value)
{
    // "LENGTH key=value\n", where LENGTH counts itself.
    const qsizetype rest = key.size() + value.size() + 3;
    qsizetype length = rest + QByteArray::number(rest).size();
    if (QByteArray::number(length).size() != QByteArray::number(rest).size())
        ++length;
    return QByteArray::number(length) + ' ' + key + '=' + value + '\n';
}

} // namespace

QByteArray TarWriter::fileHeader(const QString &name, qint64 size, qint64 mtimeSeconds)
{
    const QByteArray encoded = name.toUtf8();
    if (encoded.size() <= 100 && size < 077777777777LL)
        return header(encoded, size, mtimeSeconds, '0');
    const QByteArray records = paxRecord("path", encoded) + paxRecord("size", QByteArray::number(size));
    return header("PaxHeader", records.size(), mtimeSeconds, 'x') + records + padding(records.size()) +
           header(encoded.left(100), size, mtimeSeconds, '0');
}

QByteArray TarWriter::padding(qint64 size)
{
    return QByteArray((blockSize - size % blockSize) % blockSize, '\0');
}

QByteArray TarWriter::end()
{
    return QByteArray(2 * blockSize, '\0');
}

} // namespace Sandpiper
