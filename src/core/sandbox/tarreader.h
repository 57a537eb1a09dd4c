#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QSet>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

class QSaveFile;

namespace Sandpiper {

// Unpacks a tar stream that a container sent (`tar -c` through `docker exec`) into a folder on
// this machine, as it arrives. The stream is untrusted like everything from the sandbox: only
// regular files are written, under names that SandboxFolder::nameProblem accepts, never through a
// link or over something that is not a regular file, and at most MAXBYTES in all; links, devices,
// FIFOs and files past the limit are refused with a sentence each. Every file is written to a
// temporary file and renamed into place only when all its bytes came, so a stream that breaks
// off (a lost connection) leaves nothing half-written. Understands ustar, GNU (long names,
// base-256 sizes) and pax headers.
class TarReader
{
    Q_DECLARE_TR_FUNCTIONS(Sandpiper::TarReader)

public:
    TarReader(QString root, qint64 maxBytes);
    ~TarReader();

    // Only NAMES may arrive, each once: the code in the container can write into the stream that
    // tar sends (its pipe is the container user's too), so an entry nobody asked for is refused.
    void expectOnly(const QStringList &names);

    // Takes the next bytes of the stream; false once the stream is unusable (see error()).
    bool feed(QByteArrayView data);
    // The stream ended: a file still incomplete is dropped, and said so.
    void finish();

    QStringList written() const { return m_written; }
    QStringList refused() const { return m_refused; }
    // The entries those sentences are about.
    QStringList refusedNames() const { return m_refusedNames; }
    // Why the stream was given up (a corrupt header, a broken-off file); empty when it was not.
    QString error() const { return m_error; }
    qint64 bytesWritten() const { return m_bytesWritten; }

private:
    enum class Phase { Header, Data, Padding, End };
    bool takeHeader(const QByteArray &block);
    void beginFile(const QString &name, qint64 size);
    void endEntry();
    void fail(const QString &error);
    void refuse(const QString &name, const QString &sentence);
    // Makes NAME's folders below the root; false (with a refusal) when one is a link or a file.
    bool makeParents(const QString &name);

    QString m_root;
    qint64 m_maxBytes;
    Phase m_phase = Phase::Header;
    QByteArray m_block;     // a header being collected
    qint64 m_remaining = 0; // bytes of the current entry still to come
    qint64 m_padding = 0;
    char m_entryType = 0;
    QString m_entryName;
    QByteArray m_meta;  // a pax or GNU long-name entry's data
    QString m_nextName; // from such an entry, for the next header
    qint64 m_nextSize = -1;
    std::unique_ptr<QSaveFile> m_file;
    std::optional<QSet<QString>> m_expected; // the names still expected, when only some are
    QStringList m_written;
    QStringList m_refused;
    QStringList m_refusedNames;
    QString m_error;
    qint64 m_bytesWritten = 0;
};

} // namespace Sandpiper
