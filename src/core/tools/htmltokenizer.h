#pragma once

#include <QList>
#include <QString>
#include <QStringView>

#include <utility>

namespace Sandpiper {

// A forgiving HTML tokenizer for reading pages, not for rendering them: it never fails, keeps
// no tree, and gives text with entities decoded. The contents of script, style and the other
// raw-text elements come as one text token (undecoded for script and style), so markup inside
// them is never mistaken for the page's own.
class HtmlTokenizer
{
public:
    struct Token {
        enum class Type { Text, StartTag, EndTag, Comment, End };
        Type type = Type::End;
        QString name;                                  // tags: the lower-case name
        QString text;                                  // text: decoded, whitespace as in the source
        QList<std::pair<QString, QString>> attributes; // lower-case names, decoded values
        bool selfClosing = false;

        bool isStart(QStringView tag) const { return type == Type::StartTag && name == tag; }
        bool hasAttribute(QStringView attribute) const;
        QString attribute(QStringView attribute) const;
        // CLASSNAME is one of the space-separated words of the class attribute.
        bool hasClass(QStringView className) const;
    };

    // HTML must outlive the tokenizer.
    explicit HtmlTokenizer(QStringView html);

    Token next();

    static QString decodeEntities(QStringView text);
    static bool isVoidElement(QStringView tag);

private:
    Token readTag();
    Token readText();
    Token readRawText();

    QStringView m_html;
    qsizetype m_pos = 0;
    QString m_rawTextEnd; // inside <script> and the like: the name of the tag that ends it
    bool m_rawTextDecoded = false;
};

} // namespace Sandpiper
