/* global window, DOMParser */
// Office test double, part 4a: the workbook's custom XML parts (Excel's workbook.customXmlParts, ExcelApi 1.5).
// The parts live in the workbook file: a page opened with __officeDoubleWorkbook.customXmlParts finds them, and
// the tests' handle reads them. As strict as Excel where the add-in depends on it: add() of text that is not
// well-formed XML fails the sync (InvalidArgument); getXml() answers a ClientResult whose value is readable
// only after sync; a deleted part is gone for getByNamespace and fails any later use (ItemNotFound).
(function () {
  "use strict";
  const D = window.__officeDoubleParts;
  const { state } = D.grid;
  state.customXmlParts = [];
  let nextId = 1;

  function invalidArgument(message) {
    const err = new Error("InvalidArgument: " + message);
    err.code = "InvalidArgument";
    return err;
  }

  /** The root element's namespace, or throws for text that is not well-formed XML. */
  function namespaceOf(xml) {
    const doc = new DOMParser().parseFromString(String(xml), "application/xml");
    if (doc.getElementsByTagName("parsererror").length > 0)
      throw invalidArgument("the XML is not well-formed");
    return doc.documentElement.namespaceURI || "";
  }

  function addPart(xml) {
    const part = { id: "{FDQ-DOUBLE-" + nextId++ + "}", namespaceUri: namespaceOf(xml), xml: String(xml) };
    state.customXmlParts.push(part);
    return part;
  }

  function livePart(id) {
    const part = state.customXmlParts.find((p) => p.id === id);
    if (!part) {
      const err = new Error("ItemNotFound: the custom XML part was deleted");
      err.code = "ItemNotFound";
      throw err;
    }
    return part;
  }

  /** A part proxy; `at()` answers the part's id once the batch has run (an added part's id is known then). */
  function makePart(context, loadable, opBytes, at) {
    const p = loadable(context, ["id", "namespaceUri"]);
    p.__get_id = () => livePart(at()).id;
    p.__get_namespaceUri = () => livePart(at()).namespaceUri;
    p.getXml = () => {
      const result = { __ready: false, __value: undefined };
      Object.defineProperty(result, "value", {
        get() {
          if (!result.__ready)
            throw new Error("PropertyNotLoaded: sync() before reading a ClientResult's value.");
          return result.__value;
        },
      });
      context.__queue.push({
        run: () => {
          result.__value = livePart(at()).xml;
          result.__ready = true;
        },
        bytes: opBytes,
      });
      return result;
    };
    p.setXml = (xml) =>
      context.__queue.push({
        run: () => {
          const part = livePart(at());
          part.namespaceUri = namespaceOf(xml);
          part.xml = String(xml);
        },
        bytes: opBytes + String(xml).length,
      });
    p.delete = () =>
      context.__queue.push({
        run: () => {
          livePart(at());
          state.customXmlParts = state.customXmlParts.filter((x) => x.id !== at());
          state.log.push({ op: "custom-xml-delete", id: at() });
        },
        bytes: opBytes,
      });
    return p;
  }

  function makeCollection(context, loadable, opBytes, bytesOf) {
    const collection = {
      add(xml) {
        let id = null;
        context.__queue.push({
          run: () => {
            id = addPart(xml).id;
            state.log.push({ op: "custom-xml-add", id });
          },
          bytes: opBytes + bytesOf(String(xml)),
        });
        return makePart(context, loadable, opBytes, () => id);
      },
      getItem(id) {
        return makePart(context, loadable, opBytes, () => id);
      },
      getByNamespace(namespaceUri) {
        const scoped = loadable(context, ["items"]);
        scoped.__get_items = () =>
          state.customXmlParts
            .filter((p) => p.namespaceUri === namespaceUri)
            .map((p) => {
              const id = p.id;
              const part = makePart(context, loadable, opBytes, () => id);
              part.__loaded.add("id");
              part.__values.set("id", id);
              part.__values.set("namespaceUri", p.namespaceUri);
              part.__loaded.add("namespaceUri");
              return part;
            });
        return scoped;
      },
    };
    return collection;
  }

  D.customXml = { makeCollection, addPart };
})();
