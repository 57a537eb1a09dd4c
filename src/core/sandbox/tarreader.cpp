#include "sandbox/tarreader.h"

#include "sandbox/sandboxfolder.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

namespace Sandpiper {

namespace {

constexpr qsizetype blockSize = 512;
// A pax or long-name entry: no honest one comes near this.
constexpr qint64 maxMetaBytes = 64 * 1024;

QByteArray field(const QByteArray &block, int offset, int length)
{
    QByteArray value = block.mid(offset, length);
    const qsizetype nul = value.indexOf('\0');
    return nul < 0 ? value : value.left(nul);
}

// An octal number, or GNU's base-256 for large sizes; -1 when it is neither.
qint64 number(const QByteArray &block, int offset, int length)
{
    const auto first = static_cast<unsigned char>(block.at(offset));
    if (first & 0x80) {
        qint64 value = 0;
        for (int i = 1; i < length; ++i) {
            if (value > (std::numeric_limits<qint64>::max() >> 8))
                return -1;
            value = (value << 8) | static_cast<unsigned char>(block.at(offset + i));
        }
        return (first & 0x7f) == 0 ? value : -1;
    }
    bool ok = false;
    const QByteArray text = field(block, offset, length).trimmed();
    const qint64 value = text.isEmpty() ? 0 : text.toLongLong(&ok, 8);
    return text.isEmpty() || ok ? value : -1;
}

// pax headers, GNU long names and long link names: they describe the next entry.
bool isMeta(char type)
{
    return type == 'x' || type == 'L' || type == 'K';
}

bool checksumMatches(const QByteArray &block)
{
    qint64 sum = 0;
    for (qsizetype i = 0; i < blockSize; ++i)
        sum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(block.at(i));
    return number(block, 148, 8) == sum;
}

} // namespace

TarReader::TarReader(QString root, qint64 maxBytes)
    : m_root(QDir(root).absolutePath())
    , m_maxBytes(maxBytes)
{}

TarReader::~TarReader() = default;

void TarReader::refuse(const QString &name, const QString &sentence)
{
    m_refused << sentence;
    m_refusedNames << name;
}

void TarReader::fail(const QString &error)
{
    if (m_file)
        m_file->cancelWriting();
    m_file.reset();
    if (m_error.isEmpty())
        m_error = error;
    m_phase = Phase::End;
}

bool TarReader::feed(QByteArrayView data)
{
    while (!data.isEmpty() && m_error.isEmpty()) {
        switch (m_phase) {
        case Phase::End:
            return true; // what follows the end of the archive is ignored
        case Phase::Header: {
            const qsizetype take = std::min(data.size(), blockSize - m_block.size());
            m_block += data.first(take).toByteArray();
            data = data.sliced(take);
            if (m_block.size() == blockSize && !takeHeader(std::exchange(m_block, QByteArray())))
                return false;
            break;
        }
        case Phase::Data: {
            const qsizetype take = qsizetype(std::min<qint64>(data.size(), m_remaining));
            const QByteArrayView chunk = data.first(take);
            data = data.sliced(take);
            m_remaining -= take;
            if (isMeta(m_entryType))
                m_meta += chunk.toByteArray();
            else if (m_file && m_file->write(chunk.data(), chunk.size()) != chunk.size()) {
                refuse(m_entryName,
                       tr("%1 could not be written on this machine: %2").arg(m_entryName, m_file->errorString()));
                m_file->cancelWriting();
                m_file.reset();
            }
            if (m_remaining == 0)
                endEntry();
            break;
        }
        case Phase::Padding: {
            const qsizetype take = qsizetype(std::min<qint64>(data.size(), m_padding));
            data = data.sliced(take);
            m_padding -= take;
            if (m_padding == 0)
                m_phase = Phase::Header;
            break;
        }
        }
    }
    return m_error.isEmpty();
}

bool TarReader::takeHeader(const QByteArray &block)
{
    if (block.count('\0') == blockSize) {
        m_phase = Phase::End;
        return true;
    }
    if (!checksumMatches(block)) {
        fail(tr("The files from the sandbox arrived damaged (a tar header with a wrong checksum)."));
        return false;
    }
    const qint64 size = m_nextSize >= 0 ? m_nextSize : number(block, 124, 12);
    if (size < 0) {
        fail(tr("The files from the sandbox arrived damaged (a tar header without a size)."));
        return false;
    }
    m_entryType = block.at(156);
    QString name = std::exchange(m_nextName, QString());
    m_nextSize = -1;
    if (name.isEmpty()) {
        const QByteArray prefix = field(block, 345, 155);
        const QByteArray base = field(block, 0, 100);
        const bool ustar = block.mid(257, 5) == "ustar" && block.at(262) != ' ';
        name = QString::fromUtf8(ustar && !prefix.isEmpty() ? prefix + '/' + base : base);
    }
    while (name.startsWith(QLatin1String("./")))
        name.remove(0, 2);
    m_entryName = name;
    m_remaining = size;
    m_padding = (blockSize - size % blockSize) % blockSize;
    m_meta.clear();

    const bool regular = m_entryType == '0' || m_entryType == '\0' || m_entryType == '7';
    if (isMeta(m_entryType)) {
        if (size > maxMetaBytes) {
            fail(tr("The files from the sandbox arrived damaged (a tar header of %1).")
                     .arg(SandboxFolder::formatBytes(size)));
            return false;
        }
    } else if (regular) {
        beginFile(name, size);
    } else if (m_entryType == '5') {
        // Folders are made as the files in them need them.
    } else if (m_entryType == 'g') {
        // Global pax settings: nothing here depends on them.
    } else {
        const QString what = m_entryType == '2'   ? tr("a symbolic link")
                             : m_entryType == '1' ? tr("a hard link")
                                                  : tr("not a regular file");
        refuse(name, tr("%1 is %2; it was not copied from the sandbox.").arg(name, what));
    }
    if (m_remaining == 0)
        endEntry();
    else
        m_phase = Phase::Data;
    return true;
}

bool TarReader::makeParents(const QString &name)
{
    const QStringList parts = name.split(QLatin1Char('/'));
    QString path = m_root;
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        path += QLatin1Char('/') + parts.at(i);
        const QFileInfo info(path);
        if (info.isSymLink() || (info.exists() && !info.isDir())) {
            refuse(name, tr("%1 was not copied from the sandbox: %2 is not a folder on this machine.")
                             .arg(name, parts.mid(0, i + 1).join(QLatin1Char('/'))));
            return false;
        }
        if (!info.exists() && !QDir().mkdir(path)) {
            refuse(name, tr("%1 could not be written on this machine: its folder cannot be made.").arg(name));
            return false;
        }
    }
    return true;
}

void TarReader::expectOnly(const QStringList &names)
{
    m_expected = QSet<QString>(names.cbegin(), names.cend());
}

void TarReader::beginFile(const QString &name, qint64 size)
{
    if (const QString problem = SandboxFolder::nameProblem(name); !problem.isEmpty()) {
        refuse(name, problem);
        return;
    }
    if (m_expected && !m_expected->remove(name)) {
        refuse(
            name,
            tr("%1 arrived from the sandbox without being asked for (or a second time); it was not copied.").arg(name));
        return;
    }
    if (m_bytesWritten + size > m_maxBytes) {
        refuse(name, tr("%1 (%2) was not copied from the sandbox: the conversation's files would pass their %3 limit.")
                         .arg(name, SandboxFolder::formatBytes(size), SandboxFolder::formatBytes(m_maxBytes)));
        return;
    }
    if (!makeParents(name))
        return;
    const QString path = m_root + QLatin1Char('/') + name;
    const QFileInfo target(path);
    if (target.isSymLink() || (target.exists() && !target.isFile())) {
        refuse(name, tr("%1 was not copied from the sandbox: something that is not a regular file has its name here.")
                         .arg(name));
        return;
    }
    m_file = std::make_unique<QSaveFile>(path);
    if (!m_file->open(QIODevice::WriteOnly)) {
        refuse(name, tr("%1 could not be written on this machine: %2").arg(name, m_file->errorString()));
        m_file.reset();
        return;
    }
    m_bytesWritten += size;
}

void TarReader::endEntry()
{
    if (m_entryType == 'x') {
        // Records: "LENGTH key=value\n".
        for (const QByteArray &record : m_meta.split('\n')) {
            const qsizetype space = record.indexOf(' ');
            const QByteArray keyValue = space < 0 ? QByteArray() : record.mid(space + 1);
            if (keyValue.startsWith("path="))
                m_nextName = QString::fromUtf8(keyValue.mid(5));
            else if (keyValue.startsWith("size="))
                m_nextSize = keyValue.mid(5).toLongLong();
        }
    } else if (m_entryType == 'L') {
        m_nextName = QString::fromUtf8(field(m_meta, 0, int(m_meta.size())));
    } else if (m_file) {
        if (m_file->commit())
            m_written << m_entryName;
        else
            refuse(m_entryName,
                   tr("%1 could not be written on this machine: %2").arg(m_entryName, m_file->errorString()));
        m_file.reset();
    }
    m_meta.clear();
    m_phase = m_padding > 0 ? Phase::Padding : Phase::Header;
}

void TarReader::finish()
{
    if (m_phase == Phase::Data || (m_phase == Phase::Header && !m_block.isEmpty()))
        fail(m_file ? tr("The copy of %1 from the sandbox broke off; nothing of it was kept.").arg(m_entryName)
                    : tr("The files from the sandbox broke off."));
}

} // namespace Sandpiper
