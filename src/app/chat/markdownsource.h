#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace Sandpiper {

class RemoteImages;

// The Markdown of a message made ready for Qt's reader, as text: nothing here draws. Sandbox
// image paths become local file URLs (checked: only names inside the conversation's folder),
// remote images become "load image" links until they are loaded, fenced code gets a header with
// a copy link, and TeX formulas become tokens that MarkdownView draws as math.
class MarkdownSource
{
    Q_DECLARE_TR_FUNCTIONS(Sandpiper::MarkdownSource)

public:
    // The links the prepared Markdown holds: copy code block N, load the remote image, a formula.
    static const QString copyScheme;
    static const QString loadImageScheme;
    // A formula's token: "sandpiper-math:d/<TeX, percent-encoded>" (d: display, i: inline).
    // Whatever the model writes in that form is only ever drawn as math.
    static const QString mathScheme;

    // FOLDER: the host folder that the sandbox sees as /mnt/data (empty: none). REMOTEIMAGES:
    // those the user asked for (none: each stays a link).
    MarkdownSource(const QString &folder, const RemoteImages *remoteImages);

    // MARKDOWN with its formulas marked and everything above rewritten; the source of its code
    // blocks is added to CODEBLOCKS and their languages to LANGUAGES, in order.
    QString prepare(const QString &markdown, QStringList *codeBlocks, QStringList *languages) const;
    // The name inside the folder that a "sandbox:/mnt/data/..." or "/mnt/data/..." target stands
    // for; empty when it is no such target or no acceptable name.
    QString sandboxNameFor(const QString &target) const;

    // Where TEXT can be split into finished paragraphs: after the last blank line, from FROM on,
    // that is outside a code fence and not inside a list (FROM itself when there is none). A
    // chunk rendered on its own reads as it would within the whole text.
    static qsizetype lastParagraphBoundary(const QString &text, qsizetype from);
    // Formulas become image tokens of mathScheme (Qt's reader leaves out images without an
    // alternative text, so each has one).
    static QString markFormulas(const QString &markdown);

private:
    QString rewriteImages(const QString &line) const;

    QString m_folder;
    const RemoteImages *m_remoteImages;
};

} // namespace Sandpiper
