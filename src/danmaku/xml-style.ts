// The XSLT embedded in every danmaku file (`<?xml-stylesheet href="#s"?>`): a browser shows the file as tables.

export const DANMAKU_XSLT = `<xsl:stylesheet version="1.0" id="s" xml:id="s" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="html" encoding="utf-8"/>
<xsl:template match="/">
<html><head><meta charset="utf-8"/><title><xsl:value-of select="/i/BililiveRecorderRecordInfo/@name"/> · <xsl:value-of select="/i/BililiveRecorderRecordInfo/@title"/></title>
<style>body{font-family:sans-serif}table{border-collapse:collapse;margin-bottom:2em}td,th{border:1px solid #999;padding:2px 6px}</style></head>
<body>
<h1><xsl:value-of select="/i/BililiveRecorderRecordInfo/@name"/> (<xsl:value-of select="/i/BililiveRecorderRecordInfo/@roomid"/>)</h1>
<p><xsl:value-of select="/i/BililiveRecorderRecordInfo/@title"/> · <xsl:value-of select="/i/BililiveRecorderRecordInfo/@start_time"/></p>
<h2>Comments (<xsl:value-of select="count(/i/d)"/>)</h2>
<table><tr><th>time</th><th>user</th><th>uid</th><th>text</th></tr>
<xsl:for-each select="/i/d"><tr><td><xsl:value-of select="substring-before(@p,',')"/></td><td><xsl:value-of select="@user"/></td><td><xsl:value-of select="substring-before(substring-after(substring-after(substring-after(substring-after(substring-after(substring-after(@p,','),','),','),','),','),','),',')"/></td><td><xsl:value-of select="."/></td></tr></xsl:for-each>
</table>
<h2>Super chats (<xsl:value-of select="count(/i/sc)"/>)</h2>
<table><tr><th>time</th><th>user</th><th>uid</th><th>price</th><th>shown (s)</th><th>message</th></tr>
<xsl:for-each select="/i/sc"><tr><td><xsl:value-of select="@ts"/></td><td><xsl:value-of select="@user"/></td><td><xsl:value-of select="@uid"/></td><td><xsl:value-of select="@price"/></td><td><xsl:value-of select="@time"/></td><td><xsl:value-of select="."/></td></tr></xsl:for-each>
</table>
<h2>Guard purchases (<xsl:value-of select="count(/i/guard)"/>)</h2>
<table><tr><th>time</th><th>user</th><th>uid</th><th>level</th><th>count</th></tr>
<xsl:for-each select="/i/guard"><tr><td><xsl:value-of select="@ts"/></td><td><xsl:value-of select="@user"/></td><td><xsl:value-of select="@uid"/></td><td><xsl:value-of select="@level"/></td><td><xsl:value-of select="@count"/></td></tr></xsl:for-each>
</table>
<h2>Gifts (<xsl:value-of select="count(/i/gift)"/>)</h2>
<table><tr><th>time</th><th>user</th><th>uid</th><th>gift</th><th>count</th></tr>
<xsl:for-each select="/i/gift"><tr><td><xsl:value-of select="@ts"/></td><td><xsl:value-of select="@user"/></td><td><xsl:value-of select="@uid"/></td><td><xsl:value-of select="@giftname"/></td><td><xsl:value-of select="@giftcount"/></td></tr></xsl:for-each>
</table>
</body></html>
</xsl:template>
</xsl:stylesheet>`;
